#include <algorithm>

#include "handoff/jacobi.hpp"
#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/reference/inputs.hpp"

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

void jacobi_host_loop::run() {
  stages_ = {};
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
    stages_.h2d += elapsed_milliseconds(before_upload_, after_upload_) * 1e-3;
    stages_.kernel += elapsed_milliseconds(after_upload_, after_kernel_) * 1e-3;
    stages_.d2h += elapsed_milliseconds(after_kernel_, after_download_) * 1e-3;
  }
}

std::span<const float> jacobi_host_loop::result() const {
  return state_[(problem_.iterations - 1) % 2].span();
}

}  // namespace handoff::patterns::iterative
