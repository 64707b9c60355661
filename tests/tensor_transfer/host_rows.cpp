// The host-only form of the rows that have one (queue, pipe, shm), with no GPU: CI's program.

#include "conformance_target.hpp"

namespace handoff::patterns {

const compute_target conformance_target = compute_target::host_stand_in;

}  // namespace handoff::patterns
