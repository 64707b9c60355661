#pragma once
// A POSIX shared-memory segment: created with O_EXCL, mode 0600 and an unpredictable name, and
// backed by real pages up front (posix_fallocate), so a full /dev/shm is a typed error at creation
// instead of a SIGBUS on first touch. A private segment is unlinked as soon as it is mapped, so
// even a crash leaves nothing in /dev/shm.

#include <cstddef>
#include <span>
#include <string>

#include "handoff/patterns/process_errors.hpp"

namespace handoff::patterns {

class shared_memory_error : public process_error {
 public:
  shared_memory_error(std::string message, int error_number)
      : process_error(std::move(message)), error_number_(error_number) {}
  int error_number() const noexcept { return error_number_; }

 private:
  int error_number_;
};

// /dev/shm has no room for the segment.
class shared_memory_full : public shared_memory_error {
 public:
  using shared_memory_error::shared_memory_error;
};

class shared_memory_segment {
 public:
  // purpose goes into the name, so that a leak can be traced to whoever made it.
  static shared_memory_segment create_private(std::size_t bytes,
                                              const std::string& purpose = "private");

  shared_memory_segment(shared_memory_segment&& other) noexcept;
  shared_memory_segment& operator=(shared_memory_segment&& other) noexcept;
  shared_memory_segment(const shared_memory_segment&) = delete;
  shared_memory_segment& operator=(const shared_memory_segment&) = delete;
  ~shared_memory_segment();

  std::span<std::byte> bytes() const noexcept { return {base_, size_}; }

 private:
  shared_memory_segment(std::byte* base, std::size_t size) : base_(base), size_(size) {}

  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
};

// "/handoff-<purpose>-<random hex>": unpredictable, so no other user can pre-create it.
std::string unpredictable_segment_name(const std::string& purpose);

}  // namespace handoff::patterns
