#pragma once
// postproc_split (seed 000 example 3): c = a + b is already in device memory; one run lasts until
// its sum is on the host. The table, one row per variant:
//   seed        c comes back whole, and its chunks travel by value to a pool of spawned CPU workers
//               (seed_split.cpp);
//   shm         the pool reads its chunks from a shared-memory segment (shm_split.cpp);
//   overlapped  piece k + 1 comes back while the pool sums piece k (overlapped_split.cpp);
//   gpu_reduce  a CUB reduction where c lies, returning only the scalar (gpu_reduce.cpp);
//   cpu_serial  one thread summing c in host memory, the best CPU reference (cpu_serial.cpp).
// The process variants also run with a host stand-in for the device (c in host memory, the copy
// back a memcpy), so CI exercises their orchestration; they have a cold figure: the pool started
// from nothing, then one batch.

#include "handoff/patterns/postproc_split/split_case.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::postproc_split {

using split_row = variant_row<split_point, split_case>;

variant_table<split_point, split_case> postproc_split_variants();

}  // namespace handoff::patterns::postproc_split
