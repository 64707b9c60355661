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
  stage_times run(const batch& work);
  void poison_output();
  std::span<const float> result() const { return out_; }

 private:
  std::vector<float> a_, b_, out_;
};

}  // namespace handoff::patterns::pool_prep
