#pragma once
// A POSIX shared-memory segment: created with O_EXCL, mode 0600 and an unpredictable name, and
// backed by real pages up front (posix_fallocate), so a full /dev/shm is a typed error at creation
// instead of a SIGBUS on first touch. Every segment is unlinked as soon as it is created and
// mapped, so even a crash leaves nothing in /dev/shm.
//
// Workers are spawned, not forked, so they cannot inherit a mapping: a shareable segment keeps its
// descriptor, the coordinator hands that to the worker (spawned_process's inherited_fds), and the
// worker maps the same pages with attach().

#include <cstddef>
#include <span>
#include <string>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::transport {

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

// A size no segment can have on this system (beyond a file offset or the address space).
class shared_memory_too_large : public shared_memory_error {
 public:
  using shared_memory_error::shared_memory_error;
};

// attach() was given a descriptor that is not a mappable segment of at least the expected size.
class shared_memory_bad_descriptor : public shared_memory_error {
 public:
  using shared_memory_error::shared_memory_error;
};

class shared_memory_segment {
 public:
  // purpose goes into the name, so that a leak can be traced to whoever made it.
  static shared_memory_segment create_private(std::size_t bytes,
                                              const std::string& purpose = "private");
  // As create_private, but the segment keeps its (close-on-exec) descriptor, for handing to a
  // spawned worker. Zero bytes is an error: there would be nothing to map on the other side.
  static shared_memory_segment create_shareable(std::size_t bytes,
                                                const std::string& purpose = "shareable");
  // Maps the segment behind fd (a descriptor from create_shareable, inherited by this process).
  // fd stays the caller's: the segment keeps a duplicate of its own. A descriptor that is not a
  // read-write shared-memory file, or whose size is below expected_min_bytes, is
  // shared_memory_bad_descriptor. The whole segment is mapped, whatever its size.
  static shared_memory_segment attach(int fd, std::size_t expected_min_bytes);

  shared_memory_segment(shared_memory_segment&& other) noexcept;
  shared_memory_segment& operator=(shared_memory_segment&& other) noexcept;
  shared_memory_segment(const shared_memory_segment&) = delete;
  shared_memory_segment& operator=(const shared_memory_segment&) = delete;
  ~shared_memory_segment();

  std::span<std::byte> bytes() const noexcept { return {base_, size_}; }
  // The descriptor to hand to a worker; -1 for a private segment.
  int descriptor() const noexcept { return descriptor_.get(); }

 private:
  shared_memory_segment(std::byte* base, std::size_t size, unique_fd descriptor)
      : base_(base), size_(size), descriptor_(std::move(descriptor)) {}
  void unmap() noexcept;

  std::byte* base_ = nullptr;
  std::size_t size_ = 0;
  unique_fd descriptor_;
};

// "/handoff-<purpose>-<random hex>": unpredictable, so no other user can pre-create it.
std::string unpredictable_segment_name(const std::string& purpose);

// "1125899906842624 bytes (1 PiB)": sizes in error messages, exact and readable.
std::string describe_byte_count(std::size_t bytes);

}  // namespace handoff::transport
