#pragma once
// What each worker (and the cpu_serial reference) does with its chunk: np.sum, returned as a
// double. Sixteen independent double accumulators let the compiler vectorise the loop without
// reassociating anything itself, so one thread runs at about the memory's read rate, and the
// rounding error stays far below the suite's relative 1e-5.

#include <span>

namespace handoff::patterns::postproc_split {

double sum_chunk(std::span<const float> values) noexcept;

}  // namespace handoff::patterns::postproc_split
