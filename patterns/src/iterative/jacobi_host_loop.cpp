#include <algorithm>

#include "handoff/jacobi.hpp"
#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "jacobi_variant_session.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::iterative {

jacobi_host_loop::jacobi_host_loop(jacobi_problem problem)
    : problem_(checked(problem)),
      x0_(problem.b.size()),
      state_{pinned_buffer<float>(problem.b.size()), pinned_buffer<float>(problem.b.size())},
      device_b_(problem.b.size()),
      device_x_(problem.b.size()),
      device_x_new_(problem.b.size()) {
  std::ranges::copy(problem_.x0, x0_.data());
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_b_.data(), problem_.b.data(), device_b_.size_bytes(),
                                     cudaMemcpyHostToDevice, stream_.get()));
  stream_.synchronize();
}

void jacobi_host_loop::poison_output() {
  reference::poison(state_[0].span());
  reference::poison(state_[1].span());
  for (const auto* buffer : {&device_x_, &device_x_new_}) {
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(buffer->data(), reference::poison_byte, buffer->size_bytes(),
                                       stream_.get()));
  }
  stream_.synchronize();
}

stage_times jacobi_host_loop::run() {
  stage_times stages;
  const float* x = x0_.data();
  const std::size_t bytes = device_x_.size_bytes();
  const cudaStream_t stream = stream_.get();
  for (int k = 1; k <= problem_.iterations; ++k) {
    float* x_new = state_[(k - 1) % 2].data();
    before_upload_.record(stream);
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(device_x_.data(), x, bytes, cudaMemcpyHostToDevice, stream));
    after_upload_.record(stream);
    launch_jacobi_1d_step(device_b_.data(), device_x_.data(), device_x_new_.data(),
                          device_x_.size(), problem_.diagonal, stream);
    after_kernel_.record(stream);
    HANDOFF_CUDA_CHECK(
        cudaMemcpyAsync(x_new, device_x_new_.data(), bytes, cudaMemcpyDeviceToHost, stream));
    after_download_.record(stream);
    stream_.synchronize();
    // The coordinator's step: this iteration's output is the next one's input. It is a pointer
    // hand-over, so the post stage stays 0; the host's cost is the wait above, reported as wait.
    x = x_new;
    stages.h2d += elapsed_milliseconds(before_upload_, after_upload_) * 1e-3;
    stages.kernel += elapsed_milliseconds(after_upload_, after_kernel_) * 1e-3;
    stages.d2h += elapsed_milliseconds(after_kernel_, after_download_) * 1e-3;
  }
  return stages;
}

std::span<const float> jacobi_host_loop::result() const {
  return state_[(problem_.iterations - 1) % 2].span();
}

}  // namespace handoff::patterns::iterative

namespace handoff::patterns::iterative {

// Timed by the wall clock: the host takes part in every step.
std::unique_ptr<jacobi_session> set_up_host_loop(const jacobi_point& at, compute_target) {
  return std::make_unique<detail::jacobi_variant_session<jacobi_host_loop, &jacobi_host_loop::run>>(
      at);
}

// Every step is a round trip, one stage after the other: the state over PCIe both ways (pinned)
// and the step's bytes through device memory. The launch is enqueued while the upload runs, so it
// adds nothing; the host's turn-around between steps shows as the wait stage.
floor_terms host_loop_floor(const jacobi_point& at, compute_target, const measured_run&) {
  const double state_bytes = 4.0 * static_cast<double>(at.unknowns);
  floor_terms floor;
  floor.add_bytes(detail::h2d_pinned, at.iterations * state_bytes)
      .add_bytes(detail::d2h_pinned, at.iterations * state_bytes);
  detail::add_step_bytes(floor, at);
  return floor;
}

constinit const jacobi_row host_loop_variant{
    .name = "host_loop",
    .description = "the state shipped up and down every iteration",
    .recipe = true,
    .targets = on_device,
    .clock = clock_kind::wall,
    .setup = set_up_host_loop,
    .floor = host_loop_floor,
    // Every step moves 2 x 4 bytes an unknown over PCIe: past 2^24 a run takes about a second,
    // and 2^24 already shows the trend.
    .measured_at = up_to<std::size_t{1} << 24>};

}  // namespace handoff::patterns::iterative
