#pragma once
// Where a tensor lives inside one process: device memory, or host memory for the host-only form of
// the host-path variants (which lets CI, with no GPU, run the same orchestration).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns {

class pinned_chunks;

class tensor_memory {
 public:
  virtual ~tensor_memory() = default;

  virtual std::size_t bytes() const = 0;
  // Device memory, or nullptr for a host tensor.
  virtual std::byte* device_data() const = 0;
  // Host memory, or empty for a device tensor.
  virtual std::span<std::byte> host_data() const = 0;

  // Pageable copies for a device tensor (what the article's tensor.cpu() and .cuda() do), memcpy
  // for a host tensor.
  virtual void copy_to_host(std::size_t offset, std::span<std::byte> destination) const = 0;
  virtual void copy_from_host(std::size_t offset, std::span<const std::byte> source) = 0;

  // Page-locked buffers for moving a device tensor through host memory chunk by chunk (the
  // host-path variants' framing), made with the tensor and kept for its lifetime, so that neither
  // a session nor a cold transfer pays for page-locking; nullptr for a host tensor.
  virtual pinned_chunks* staging() const = 0;
  // A few chunks of host memory for a host tensor large enough that its frame's checksum runs on a
  // thread of its own (framing.hpp): a receiver lands the payload there, in cache, rather than in
  // the tensor; empty otherwise. Made with the tensor, as staging is.
  virtual std::span<std::byte> landing() const = 0;

  virtual void poison() = 0;
  // Seeded, never-zero floats; bytes must be a multiple of 4.
  void fill_seeded(std::uint64_t seed);
  // Bit-for-bit comparison with fill_seeded's pattern.
  reference::verification_result verify_seeded(std::uint64_t seed) const;
};

std::unique_ptr<tensor_memory> make_host_tensor(std::size_t bytes);
std::unique_ptr<tensor_memory> make_device_tensor(std::size_t bytes);
std::unique_ptr<tensor_memory> make_tensor(std::size_t bytes, bool on_device);

// The seeded pattern, as both ends of a transfer derive it (a whole number of floats).
reference::host_vector<float> seeded_tensor_values(std::size_t bytes, std::uint64_t seed);

}  // namespace handoff::patterns
