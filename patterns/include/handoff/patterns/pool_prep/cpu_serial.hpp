#pragma once
// cpu_serial: the whole batch on the calling thread, chunk by chunk: prepare a and b, add them.
// What the recipe costs with no pool and no GPU, the baseline the other variants must beat.
// Stages: prep, and the add as kernel (the CPU stands where the kernel would).

#include <span>
#include <vector>

#include "handoff/patterns/pool_prep/batch.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::pool_prep {

class cpu_serial {
 public:
  // out must hold work.total_elements floats (else std::invalid_argument).
  stage_times run(const batch& work, std::span<float> out);

 private:
  std::vector<float> a_, b_;
};

}  // namespace handoff::patterns::pool_prep
