#include "handoff/patterns/iterative/device_jacobi_state.hpp"

#include <limits>
#include <stdexcept>
#include <string>

#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::iterative {
namespace {

void upload(const device_buffer<float>& to, std::span<const float> from, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemcpyAsync(to.data(), from.data(), from.size_bytes(), cudaMemcpyHostToDevice, stream));
}

template <class T>
void poison_device(const device_buffer<T>& buffer, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemsetAsync(buffer.data(), reference::poison_byte, buffer.size_bytes(), stream));
}

}  // namespace

device_jacobi_state::device_jacobi_state(jacobi_problem problem, int check_every)
    : problem_(checked(problem)),
      checks_(check_iterations(problem.iterations, check_every)),
      b_(problem.b.size()),
      x0_(problem.b.size()),
      state_{device_buffer<float>(problem.b.size()), device_buffer<float>(problem.b.size())},
      norms_(checks_.size()),
      host_norms_(checks_.size()),
      reducer_(problem.b.size()) {
  upload(b_, problem_.b, stream());
  upload(x0_, problem_.x0, stream());
  stream_.synchronize();
}

const float* device_jacobi_state::input_of(int k) const {
  return k == 1 ? x0_.data() : state_[(k - 2) % 2].data();
}

float* device_jacobi_state::output_of(int k) const {
  return state_[(k - 1) % 2].data();
}

void device_jacobi_state::enqueue_step(int k) const {
  launch_jacobi_1d_step(b_.data(), input_of(k), output_of(k), unknowns(), problem_.diagonal,
                        stream());
}

void device_jacobi_state::enqueue_check(int k, std::size_t check) const {
  reducer_.enqueue(output_of(k), input_of(k), norms_.data() + check, stream());
}

void device_jacobi_state::enqueue_norms_download(std::size_t first, std::size_t count) const {
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(host_norms_.data() + first, norms_.data() + first,
                                     count * sizeof(double), cudaMemcpyDeviceToHost, stream()));
}

void device_jacobi_state::poison() {
  poison_device(state_[0], stream());
  poison_device(state_[1], stream());
  poison_device(norms_, stream());
  for (std::size_t c = 0; c < host_norms_.size(); ++c)
    host_norms_.data()[c] = std::numeric_limits<double>::quiet_NaN();
  stream_.synchronize();
}

std::vector<float> device_jacobi_state::download_iterate(int k) const {
  // The two buffers hold only the last two iterates.
  if (k != problem_.iterations && k != problem_.iterations - 1) {
    throw std::out_of_range("jacobi: iterate " + std::to_string(k) + " is no longer held");
  }
  std::vector<float> host(unknowns());
  const float* source = k == 0 ? x0_.data() : output_of(k);
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(host.data(), source, host.size() * sizeof(float),
                                     cudaMemcpyDeviceToHost, stream()));
  stream_.synchronize();
  return host;
}

}  // namespace handoff::patterns::iterative
