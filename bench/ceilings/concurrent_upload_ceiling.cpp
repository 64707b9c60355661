// Uploads from pinned host memory to several GPUs at once, each GPU copying its own slice of one
// pinned array on a stream of its own, as a multi_gpu from_host run does. One GPU alone reaches
// pcie_h2d_pinned; several at once share the host's memory and root complex, and a from_host run on
// four GPUs fell well short of four times one GPU's speed while the floor still priced every GPU at
// one GPU's rate. This ceiling, one per GPU count from 2 to every GPU, is each GPU's rate while
// that many upload together (the bytes of one GPU over the time of all), so a floor can price a
// device's share at it directly. nvbandwidth's all-to-host tests measure the same thing.
// (figures: docs/design/measured-along-the-way.md, "A ceiling for uploads to several GPUs at once")

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "ceiling_sizes.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"
#include "handoff/stream.hpp"

namespace handoff::bench::concurrent_upload_ceiling {
namespace {

// Made while its device is current, so that its stream, event and buffer belong to it.
struct upload_lane {
  explicit upload_lane(std::size_t values) : destination(values) {}
  device_buffer<float> destination;
  handoff::stream stream;
  event done{cudaEventDisableTiming};
};

std::vector<upload_lane> lanes_on(int gpus, std::size_t values) {
  std::vector<upload_lane> lanes;
  lanes.reserve(static_cast<std::size_t>(gpus));
  for (int device = 0; device < gpus; ++device) {
    const scoped_device on_device(device);
    lanes.emplace_back(values);
  }
  return lanes;
}

void upload_at_once(benchmark::State& state, const row_context& context, int gpus,
                    std::size_t bytes_per_gpu) {
  const std::size_t values = bytes_per_gpu / sizeof(float);
  std::vector<float> pattern(values * static_cast<std::size_t>(gpus));
  reference::fill_seeded_nonzero(pattern, 0xA11);
  pinned_buffer<float> source(pattern.size());
  std::ranges::copy(pattern, source.data());
  auto lanes = lanes_on(gpus, values);
  const cudaStream_t origin = lanes.front().stream.get();
  const scoped_device on_origin(0);
  const event started(cudaEventDisableTiming);
  const auto poison_every_lane = [&] {
    for (int device = 0; device < gpus; ++device) {
      const scoped_device on_device(device);
      auto& lane = lanes[static_cast<std::size_t>(device)];
      HANDOFF_CUDA_CHECK(cudaMemsetAsync(lane.destination.data(), reference::poison_byte,
                                         lane.destination.size_bytes(), lane.stream.get()));
      lane.stream.synchronize();
    }
  };
  // Started together by one event on GPU 0's stream and joined there, as the multi_gpu rows are:
  // the copies take milliseconds, the two cross-device waits microseconds.
  const auto upload_everywhere = [&] {
    started.record(origin);
    for (int device = 0; device < gpus; ++device) {
      const scoped_device on_device(device);
      auto& lane = lanes[static_cast<std::size_t>(device)];
      HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(lane.stream.get(), started.get()));
      HANDOFF_CUDA_CHECK(cudaMemcpyAsync(lane.destination.data(),
                                         source.data() + static_cast<std::size_t>(device) * values,
                                         bytes_per_gpu, cudaMemcpyHostToDevice, lane.stream.get()));
      lane.done.record(lane.stream.get());
    }
    for (const auto& lane : lanes)
      HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(origin, lane.done.get()));
  };
  measure_gpu_region(state, context, origin, poison_every_lane, upload_everywhere);
  std::vector<float> received(pattern.size());
  for (int device = 0; device < gpus; ++device) {
    const auto& lane = lanes[static_cast<std::size_t>(device)];
    HANDOFF_CUDA_CHECK(cudaMemcpy(received.data() + static_cast<std::size_t>(device) * values,
                                  lane.destination.data(), bytes_per_gpu, cudaMemcpyDefault));
  }
  // One GPU's bytes: the ceiling is each GPU's rate under the shared load.
  set_traffic(state, static_cast<double>(bytes_per_gpu), static_cast<double>(values));
  state.counters["gpus_uploading"] = gpus;
  record_verification(state, reference::verify_bytes(std::as_bytes(std::span(pattern)),
                                                     std::as_bytes(std::span(received))));
}

void register_concurrent_uploads(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  for (int gpus = 2; gpus <= environment.gpus.count; ++gpus) {
    register_benchmark(benchmark_name("ceilings", ceiling::h2d_pinned_each_of(gpus),
                                      {{"bytes", std::to_string(bytes)}}),
                       [=](benchmark::State& state, const row_context& context) {
                         upload_at_once(state, context, gpus, bytes);
                       });
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/pcie_h2d_pinned_concurrent", 2, register_concurrent_uploads);

}  // namespace handoff::bench::concurrent_upload_ceiling
