#include "item_lanes.hpp"

#include <stdexcept>

#include "handoff/cuda_check.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"
#include "handoff/wall_clock.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {
namespace {

double seconds_between(const event& start, const event& stop) {
  return static_cast<double>(elapsed_milliseconds(start, stop)) * 1e-3;
}

}  // namespace

void create_device_context() {
  enter_cuda();
  HANDOFF_CUDA_CHECK(cudaFree(nullptr));
}

struct item_lanes::device_lane {
  explicit device_lane(std::size_t max_elements)
      : a(max_elements), b(max_elements), c(max_elements) {}

  device_buffer<float> a;
  device_buffer<float> b;
  device_buffer<float> c;
  handoff::stream stream;
  event started;
  event uploaded;
  event computed;
  event downloaded;
};

item_lanes::item_lanes(compute_target target, std::size_t lanes, std::size_t max_elements)
    : target_(target), lane_count_(lanes), host_kernel_seconds_(lanes, 0.0) {
  if (lanes == 0) throw std::invalid_argument("item_lanes: at least one lane");
  if (target_ != compute_target::device) return;
  for (std::size_t lane = 0; lane < lanes; ++lane) {
    device_lanes_.push_back(std::make_unique<device_lane>(max_elements));
  }
}

item_lanes::~item_lanes() = default;

void item_lanes::submit(std::size_t lane, std::span<const float> a, std::span<const float> b,
                        std::span<float> c) {
  if (a.size() != b.size() || a.size() != c.size()) {
    throw std::invalid_argument("item_lanes: a, b and c must have the same length");
  }
  if (target_ != compute_target::device) {
    const auto start = wall_clock::now();
    reference::vector_add(a, b, c);
    host_kernel_seconds_.at(lane) = seconds_since(start);
    return;
  }
  auto& on = *device_lanes_.at(lane);
  if (a.size() > on.a.size()) throw std::invalid_argument("item_lanes: item over the lane's size");
  const cudaStream_t stream = on.stream.get();
  on.started.record(stream);
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(on.a.data(), a.data(), a.size_bytes(), cudaMemcpyHostToDevice, stream));
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(on.b.data(), b.data(), b.size_bytes(), cudaMemcpyHostToDevice, stream));
  on.uploaded.record(stream);
  launch_vector_add(on.a.data(), on.b.data(), on.c.data(), c.size(), stream);
  on.computed.record(stream);
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(c.data(), on.c.data(), c.size_bytes(), cudaMemcpyDeviceToHost, stream));
  on.downloaded.record(stream);
}

bool item_lanes::inputs_consumed(std::size_t lane) {
  return target_ != compute_target::device || device_lanes_.at(lane)->uploaded.finished();
}

bool item_lanes::finished(std::size_t lane) {
  return target_ != compute_target::device || device_lanes_.at(lane)->downloaded.finished();
}

void item_lanes::wait_until_finished(std::size_t lane) {
  if (target_ == compute_target::device) device_lanes_.at(lane)->downloaded.synchronize();
}

void item_lanes::add_stage_times(std::size_t lane, stage_times& stages) {
  if (target_ != compute_target::device) {
    stages.kernel += host_kernel_seconds_.at(lane);
    return;
  }
  const auto& on = *device_lanes_.at(lane);
  stages.h2d += seconds_between(on.started, on.uploaded);
  stages.kernel += seconds_between(on.uploaded, on.computed);
  stages.d2h += seconds_between(on.computed, on.downloaded);
}

}  // namespace handoff::patterns::queued_worker
