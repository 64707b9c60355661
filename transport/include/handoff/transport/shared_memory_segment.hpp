#pragma once
// A shared-memory segment that no process sharing it can use to crash another.
//
// It is an anonymous memory file (memfd_create), named "handoff-<purpose>-<random hex>" so that a
// leak (a descriptor or mapping still held) can be traced to whoever made it. It has no name in
// any file system: nobody can open it by name, it exists only while some process holds its
// descriptor or a mapping, and the kernel frees it with the last holder. So the design's "unlinked
// as soon as every party has mapped it; a crashed run leaves nothing in /dev/shm" holds trivially:
// nothing is ever in /dev/shm. Only the descriptor passes it on: a shareable segment keeps its
// descriptor, the coordinator hands that to a spawned worker (spawned_process's inherited_fds),
// and the worker maps the same pages with attach().
//
// Its pages are reserved up front (fallocate), so running out of memory is a typed error at
// creation instead of a SIGBUS on first touch. The memory file lives on the kernel's internal
// shmem mount, which has no size limit of its own, so before reserving anything creation checks
// the request against what the machine can still give (shared_memory_headroom, in
// memory_headroom.hpp): a reservation beyond that would not fail, it would call the OOM killer.
//
// Its size is then sealed (F_SEAL_SHRINK, F_SEAL_GROW, and F_SEAL_SEAL so that no seal can be
// added or removed later): a peer that ftruncate()s its copy is refused (EPERM) by the kernel, so
// no mapping of it can ever reach past the end of the file, which would be a SIGBUS. attach()
// refuses any descriptor without those seals, so a process never maps memory a peer can shrink.
// What a peer can still do is write anything into the bytes: every structure kept in a segment
// validates what it reads.

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

// The machine (or this process's memory cgroup) cannot give the segment its pages.
class shared_memory_full : public shared_memory_error {
 public:
  using shared_memory_error::shared_memory_error;
};

// A size no segment can have on this system (beyond a file offset or the address space).
class shared_memory_too_large : public shared_memory_error {
 public:
  using shared_memory_error::shared_memory_error;
};

// attach() was given a descriptor that is not a sealed, mappable segment of at least the expected
// size.
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
  // read-write memory file sealed against shrinking and growing, or whose size is below
  // expected_min_bytes, is shared_memory_bad_descriptor. The whole segment is mapped, whatever its
  // size.
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

// The seals every segment carries, and attach() requires.
int required_segment_seals() noexcept;

// "handoff-<purpose>-<32 random hex digits>": the memory file's name, which /proc/<pid>/fd and
// /proc/<pid>/maps show as "/memfd:<name> (deleted)". The purpose is shortened to keep the name
// within the kernel's limit of 249 bytes.
std::string unpredictable_segment_name(const std::string& purpose);

// "1125899906842624 bytes (1 PiB)": sizes in error messages, exact and readable.
std::string describe_byte_count(std::size_t bytes);

}  // namespace handoff::transport
