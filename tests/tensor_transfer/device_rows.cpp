// Every row on device memory (all six variants): the GPU program, skipped without a GPU.

#include "conformance_target.hpp"

namespace handoff::patterns {

const compute_target conformance_target = compute_target::device;

}  // namespace handoff::patterns
