#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"

#include <cuda_runtime_api.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "handoff/cuda_check.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/patterns/tensor_transfer/pinned_chunks.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/transport/piece_hasher.hpp"

namespace handoff::patterns {
namespace {

void check_range(const tensor_memory& tensor, std::size_t offset, std::size_t length) {
  if (offset > tensor.bytes() || length > tensor.bytes() - offset) {
    throw std::out_of_range("tensor range [" + std::to_string(offset) + ", +" +
                            std::to_string(length) + ") outside a tensor of " +
                            std::to_string(tensor.bytes()) + " bytes");
  }
}

// The pipe ceiling's reader lands in four chunks of 1 MiB (pipe_sink.hpp), which stay in cache.
constexpr std::size_t landing_chunks = 4;

class host_tensor final : public tensor_memory {
 public:
  explicit host_tensor(std::size_t bytes)
      : storage_(bytes),
        landing_(bytes >= transport::piece_hasher::min_bytes ? landing_chunks * frame_chunk_bytes
                                                             : 0) {}
  std::size_t bytes() const override { return storage_.size(); }
  std::byte* device_data() const override { return nullptr; }
  std::span<std::byte> host_data() const override {
    return {const_cast<std::byte*>(storage_.data()), storage_.size()};
  }
  // An empty tensor's storage, and an empty span, may be null, and memcpy and memset with a null
  // pointer are undefined even for zero bytes (UBSan's nonnull-attribute check).
  void copy_to_host(std::size_t offset, std::span<std::byte> destination) const override {
    check_range(*this, offset, destination.size());
    if (destination.empty()) return;
    std::memcpy(destination.data(), storage_.data() + offset, destination.size());
  }
  void copy_from_host(std::size_t offset, std::span<const std::byte> source) override {
    check_range(*this, offset, source.size());
    if (source.empty()) return;
    std::memcpy(storage_.data() + offset, source.data(), source.size());
  }
  pinned_chunks* staging() const override { return nullptr; }
  std::span<std::byte> landing() const override {
    return {const_cast<std::byte*>(landing_.data()), landing_.size()};
  }
  void poison() override {
    if (storage_.empty()) return;
    std::memset(storage_.data(), reference::poison_byte, storage_.size());
  }

 private:
  std::vector<std::byte> storage_;
  std::vector<std::byte> landing_;
};

class device_tensor final : public tensor_memory {
 public:
  // The staging is made with the tensor, outside any timing, and serves every session.
  explicit device_tensor(std::size_t bytes)
      : storage_(bytes), staging_(pinned_chunks::for_tensor(bytes)) {}
  std::size_t bytes() const override { return storage_.size(); }
  std::byte* device_data() const override { return storage_.data(); }
  std::span<std::byte> host_data() const override { return {}; }
  void copy_to_host(std::size_t offset, std::span<std::byte> destination) const override {
    check_range(*this, offset, destination.size());
    if (destination.empty()) return;
    HANDOFF_CUDA_CHECK(cudaMemcpy(destination.data(), storage_.data() + offset, destination.size(),
                                  cudaMemcpyDeviceToHost));
  }
  void copy_from_host(std::size_t offset, std::span<const std::byte> source) override {
    check_range(*this, offset, source.size());
    if (source.empty()) return;
    HANDOFF_CUDA_CHECK(
        cudaMemcpy(storage_.data() + offset, source.data(), source.size(), cudaMemcpyHostToDevice));
  }
  pinned_chunks* staging() const override { return staging_.get(); }
  std::span<std::byte> landing() const override { return {}; }
  void poison() override {
    if (storage_.size() == 0) return;
    HANDOFF_CUDA_CHECK(cudaMemset(storage_.data(), reference::poison_byte, storage_.size()));
    // cudaMemset of device memory returns before it is done, on the legacy stream, which the
    // variants' and the staging's non-blocking streams do not wait for: unwaited, the poisoning of
    // 256 MiB ran beside the timed copy, slowing cuda_ipc's and vmm_fd's markedly, and could have
    // landed after it.
    HANDOFF_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  device_buffer<std::byte> storage_;
  // Destroyed first: it waits for its copies, which may still read or write storage_.
  std::unique_ptr<pinned_chunks> staging_;
};

}  // namespace

reference::host_vector<float> seeded_tensor_values(std::size_t bytes, std::uint64_t seed) {
  if (bytes % sizeof(float) != 0) {
    throw std::invalid_argument("a tensor of " + std::to_string(bytes) +
                                " bytes is not a whole number of floats");
  }
  reference::host_vector<float> values(bytes / sizeof(float));
  reference::fill_seeded_nonzero(values, seed);
  return values;
}

void tensor_memory::fill_seeded(std::uint64_t seed) {
  const auto values = seeded_tensor_values(bytes(), seed);
  copy_from_host(0, std::as_bytes(std::span(values)));
}

reference::verification_result tensor_memory::verify_seeded(std::uint64_t seed) const {
  const auto expected = seeded_tensor_values(bytes(), seed);
  reference::host_vector<std::byte> actual(bytes());
  copy_to_host(0, actual);
  return reference::verify_bytes(std::as_bytes(std::span(expected)), actual);
}

std::unique_ptr<tensor_memory> make_host_tensor(std::size_t bytes) {
  return std::make_unique<host_tensor>(bytes);
}

std::unique_ptr<tensor_memory> make_device_tensor(std::size_t bytes) {
  return std::make_unique<device_tensor>(bytes);
}

std::unique_ptr<tensor_memory> make_tensor(std::size_t bytes, bool on_device) {
  return on_device ? make_device_tensor(bytes) : make_host_tensor(bytes);
}

}  // namespace handoff::patterns
