#pragma once
// What every variant of every pattern returns for one timed hand-off or batch: the seconds it
// took, when the variant measured them itself (across processes only it can see both ends), and
// the seconds each stage took. The driver adds them up and reports them the same way for all.

#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns {

struct run_result {
  double seconds = 0;  // 0 unless the variant's clock is self (variant_row::clock)
  stage_times stages;
};

}  // namespace handoff::patterns
