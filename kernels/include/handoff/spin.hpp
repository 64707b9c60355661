#pragma once
// A kernel that occupies the stream for a given time and does nothing else: the planted slowdown
// of a CUDA-event-timed row (bench/harness/planted_delay.hpp) must sit on the GPU's timeline,
// between the row's work and its stop event, where a host-side wait would not show.

#include <cuda_runtime_api.h>

#include <cstdint>

namespace handoff {

void spin_on_stream(cudaStream_t stream, std::uint64_t nanoseconds);

// A stuck peer, for the tests of the waits that give up (bounded_wait.hpp): occupies the stream
// until *released, in mapped pinned host memory, becomes non-zero.
void spin_until_released(cudaStream_t stream, const volatile unsigned* released);

}  // namespace handoff
