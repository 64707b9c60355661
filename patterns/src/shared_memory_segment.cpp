#include "handoff/patterns/shared_memory_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

namespace handoff::patterns {
namespace {

[[noreturn]] void throw_errno(const std::string& what, int error) {
  const std::string message = what + ": " + std::strerror(error);
  if (error == ENOSPC) throw shared_memory_full(message + " (/dev/shm is full)", error);
  throw shared_memory_error(message, error);
}

}  // namespace

std::string unpredictable_segment_name(const std::string& purpose) {
  std::random_device entropy;
  char suffix[33];
  std::snprintf(suffix, sizeof(suffix), "%08x%08x%08x%08x", entropy(), entropy(), entropy(),
                entropy());
  return "/handoff-" + purpose + "-" + suffix;
}

shared_memory_segment shared_memory_segment::create_private(std::size_t bytes,
                                                            const std::string& purpose) {
  if (bytes == 0) return shared_memory_segment(nullptr, 0);
  const std::string name = unpredictable_segment_name(purpose);
  const int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) throw_errno("shm_open " + name, errno);
  ::shm_unlink(name.c_str());
  const int reserve_error = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  if (reserve_error != 0) {
    ::close(fd);
    throw_errno("reserving " + std::to_string(bytes) + " bytes of shared memory", reserve_error);
  }
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  const int map_error = errno;
  ::close(fd);
  if (base == MAP_FAILED) throw_errno("mmap of shared memory", map_error);
  return shared_memory_segment(static_cast<std::byte*>(base), bytes);
}

shared_memory_segment::shared_memory_segment(shared_memory_segment&& other) noexcept
    : base_(other.base_), size_(other.size_) {
  other.base_ = nullptr;
  other.size_ = 0;
}

shared_memory_segment& shared_memory_segment::operator=(shared_memory_segment&& other) noexcept {
  if (this != &other) {
    if (base_) ::munmap(base_, size_);
    base_ = other.base_;
    size_ = other.size_;
    other.base_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

shared_memory_segment::~shared_memory_segment() {
  if (base_) ::munmap(base_, size_);
}

}  // namespace handoff::patterns
