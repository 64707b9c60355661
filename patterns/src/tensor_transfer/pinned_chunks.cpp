#include "handoff/patterns/tensor_transfer/pinned_chunks.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"

namespace handoff::patterns {
namespace {

void check_copy(const pinned_chunks& chunks, std::size_t index, const tensor_memory& tensor,
                std::size_t offset, std::size_t bytes) {
  if (index >= chunks.count() || bytes > chunks.chunk_bytes() || tensor.device_data() == nullptr ||
      offset > tensor.bytes() || bytes > tensor.bytes() - offset) {
    throw std::out_of_range("a staged copy of " + std::to_string(bytes) + " bytes at offset " +
                            std::to_string(offset) + " through buffer " + std::to_string(index) +
                            " does not fit the tensor or the buffer");
  }
}

}  // namespace

pinned_chunks::pinned_chunks(std::size_t chunk_bytes, std::size_t count)
    : chunk_bytes_(chunk_bytes), memory_(chunk_bytes * count) {
  done_.reserve(count);
  for (std::size_t index = 0; index < count; ++index)
    done_.emplace_back(cudaEventDisableTiming);
}

std::unique_ptr<pinned_chunks> pinned_chunks::for_tensor(std::size_t bytes) {
  const std::size_t chunk = std::min(bytes, frame_chunk_bytes);
  const std::size_t chunks = chunk == 0 ? 0 : (bytes + chunk - 1) / chunk;
  return std::make_unique<pinned_chunks>(chunk, std::min(chunks, staged_chunk_count));
}

pinned_chunks::~pinned_chunks() {
  HANDOFF_CUDA_CHECK_NOEXCEPT(cudaStreamSynchronize(copies_.get()));
}

std::span<std::byte> pinned_chunks::buffer(std::size_t index) const {
  return memory_.span().subspan(index * chunk_bytes_, chunk_bytes_);
}

void pinned_chunks::start_down(std::size_t index, const tensor_memory& source, std::size_t offset,
                               std::size_t bytes) {
  check_copy(*this, index, source, offset, bytes);
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(buffer(index).data(), source.device_data() + offset, bytes,
                                     cudaMemcpyDeviceToHost, copies_.get()));
  done_[index].record(copies_.get());
}

void pinned_chunks::start_up(std::size_t index, tensor_memory& destination, std::size_t offset,
                             std::size_t bytes) {
  check_copy(*this, index, destination, offset, bytes);
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(destination.device_data() + offset, buffer(index).data(),
                                     bytes, cudaMemcpyHostToDevice, copies_.get()));
  done_[index].record(copies_.get());
}

void pinned_chunks::wait(std::size_t index) const {
  done_.at(index).synchronize();
}

void pinned_chunks::wait_all() const {
  copies_.synchronize();
}

}  // namespace handoff::patterns
