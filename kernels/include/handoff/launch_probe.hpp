#pragma once
// The smallest kernel that still proves it ran: one thread adds 1 to a counter. The launch-latency
// ceiling times it, and the counter shows that every timed launch executed.

#include <cuda_runtime_api.h>

namespace handoff {

void launch_counter_increment(unsigned long long* counter, cudaStream_t stream);

}  // namespace handoff
