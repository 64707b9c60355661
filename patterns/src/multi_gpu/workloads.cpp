#include "handoff/patterns/multi_gpu/workloads.hpp"

#include <algorithm>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::multi_gpu {

std::vector<reference::value_range> value_ranges_of(const partition_plan& plan) {
  std::vector<reference::value_range> ranges;
  ranges.reserve(plan.parts.size());
  for (const auto& part : plan.parts) {
    ranges.push_back({part.offset, part.count, reference::device_value_of(part.device)});
  }
  return ranges;
}

namespace {

constexpr int timed_launches = 5;

double throughput_on(const user_kernel& kernel, int device, std::size_t elements) {
  const scoped_device on_device(device);
  std::vector<float> values(elements);
  reference::fill_seeded_nonzero(values, 0x7E16 + static_cast<std::uint64_t>(device));
  const device_buffer<float> input(elements);
  const device_buffer<float> output(elements);
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(input.data(), values.data(), input.size_bytes(), cudaMemcpyHostToDevice));
  const handoff::stream stream;
  const event start;
  const event stop;
  const float value = reference::device_value_of(device);
  checked_launch(kernel, device, stream.get(), input.data(), output.data(), elements, value);
  double best_seconds = 0.0;
  for (int launch = 0; launch < timed_launches; ++launch) {
    start.record(stream.get());
    checked_launch(kernel, device, stream.get(), input.data(), output.data(), elements, value);
    stop.record(stream.get());
    const double seconds = elapsed_milliseconds(start, stop) * 1e-3;
    best_seconds = launch == 0 ? seconds : std::min(best_seconds, seconds);
  }
  return static_cast<double>(elements) / best_seconds;
}

}  // namespace

std::vector<double> measure_device_throughputs(const user_kernel& kernel, int devices,
                                               std::size_t calibration_elements) {
  std::vector<double> throughputs;
  for (int device = 0; device < devices; ++device) {
    throughputs.push_back(throughput_on(kernel, device, calibration_elements));
  }
  return throughputs;
}

}  // namespace handoff::patterns::multi_gpu
