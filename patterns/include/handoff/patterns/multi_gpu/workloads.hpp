#pragma once
// What the multi-GPU pattern needs of any workload (workload_registry.hpp) beyond its kernel and
// reference: the value ranges the reference needs, and the per-device throughput the weighted
// partitioner divides the work by.

#include <cstddef>
#include <vector>

#include "handoff/patterns/multi_gpu/partition.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"
#include "handoff/user_kernel.hpp"

namespace handoff::patterns::multi_gpu {

// Each part's range with the value its device adds (reference::device_value_of).
std::vector<reference::value_range> value_ranges_of(const partition_plan& plan);

inline constexpr std::size_t throughput_calibration_elements = std::size_t{1} << 24;

// Elements per second of kernel on each of devices 0..devices-1: the best of several timed
// launches over calibration_elements resident on that device, after a warm-up launch.
std::vector<double> measure_device_throughputs(
    const user_kernel& kernel, int devices,
    std::size_t calibration_elements = throughput_calibration_elements);

}  // namespace handoff::patterns::multi_gpu
