#include "handoff/transport/shared_memory_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

namespace handoff::transport {
namespace {

[[noreturn]] void throw_errno(const std::string& what, int error) {
  const std::string message = what + ": " + std::strerror(error);
  if (error == ENOSPC) throw shared_memory_full(message + " (/dev/shm has no room for it)", error);
  if (error == EFBIG || error == ENOMEM || error == EOVERFLOW) {
    throw shared_memory_too_large(message, error);
  }
  throw shared_memory_error(message, error);
}

// Creates, unlinks and fills a segment with real pages; returns its descriptor.
unique_fd open_reserved_segment(std::size_t bytes, const std::string& purpose) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<off_t>::max())) {
    throw shared_memory_too_large("a shared-memory segment of " + describe_byte_count(bytes) +
                                      " is beyond the largest file offset",
                                  EFBIG);
  }
  const std::string name = unpredictable_segment_name(purpose);
  unique_fd fd(::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600));
  if (fd.get() < 0) throw_errno("shm_open " + name, errno);
  // Unlinked before anything can fail, so no path out of here leaves a name in /dev/shm.
  ::shm_unlink(name.c_str());
  const int reserve_error = ::posix_fallocate(fd.get(), 0, static_cast<off_t>(bytes));
  if (reserve_error != 0) {
    throw_errno("reserving " + describe_byte_count(bytes) + " of shared memory for " + purpose,
                reserve_error);
  }
  return fd;
}

std::byte* map_shared(int fd, std::size_t bytes) {
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    throw_errno("mmap of " + describe_byte_count(bytes) + " of shared memory", errno);
  }
  return static_cast<std::byte*>(base);
}

[[noreturn]] void throw_bad_descriptor(int fd, const std::string& why, int error = EBADF) {
  throw shared_memory_bad_descriptor(
      "attaching shared memory from descriptor " + std::to_string(fd) + ": " + why, error);
}

const char* file_kind(mode_t mode) {
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  return "not a regular file";
}

}  // namespace

std::string unpredictable_segment_name(const std::string& purpose) {
  std::random_device entropy;
  char suffix[33];
  std::snprintf(suffix, sizeof(suffix), "%08x%08x%08x%08x", entropy(), entropy(), entropy(),
                entropy());
  return "/handoff-" + purpose + "-" + suffix;
}

std::string describe_byte_count(std::size_t bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double scaled = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (scaled >= 1024.0 && unit + 1 < std::size(units)) {
    scaled /= 1024.0;
    ++unit;
  }
  char readable[32];
  std::snprintf(readable, sizeof(readable), "%.4g %s", scaled, units[unit]);
  return std::to_string(bytes) + " bytes (" + readable + ")";
}

shared_memory_segment shared_memory_segment::create_private(std::size_t bytes,
                                                            const std::string& purpose) {
  if (bytes == 0) return shared_memory_segment(nullptr, 0, unique_fd());
  const unique_fd fd = open_reserved_segment(bytes, purpose);
  return shared_memory_segment(map_shared(fd.get(), bytes), bytes, unique_fd());
}

shared_memory_segment shared_memory_segment::create_shareable(std::size_t bytes,
                                                              const std::string& purpose) {
  if (bytes == 0) {
    throw shared_memory_error("a shareable segment for " + purpose + " needs at least one byte",
                              EINVAL);
  }
  unique_fd fd = open_reserved_segment(bytes, purpose);
  std::byte* base = map_shared(fd.get(), bytes);
  return shared_memory_segment(base, bytes, std::move(fd));
}

shared_memory_segment shared_memory_segment::attach(int fd, std::size_t expected_min_bytes) {
  if (fd < 0) throw_bad_descriptor(fd, "not a descriptor");
  struct stat status {};
  if (::fstat(fd, &status) != 0) throw_bad_descriptor(fd, std::strerror(errno), errno);
  if (!S_ISREG(status.st_mode)) {
    throw_bad_descriptor(fd, std::string(file_kind(status.st_mode)) + ", not shared memory");
  }
  const int access = ::fcntl(fd, F_GETFL) & O_ACCMODE;
  if (access != O_RDWR) throw_bad_descriptor(fd, "not open for reading and writing", EACCES);
  const auto size = static_cast<std::size_t>(status.st_size);
  if (size == 0 || size < expected_min_bytes) {
    throw_bad_descriptor(fd,
                         "the segment holds " + describe_byte_count(size) + ", expected at least " +
                             describe_byte_count(expected_min_bytes),
                         EINVAL);
  }
  unique_fd own(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
  if (own.get() < 0) throw_bad_descriptor(fd, std::string("dup: ") + std::strerror(errno), errno);
  std::byte* base = map_shared(own.get(), size);
  return shared_memory_segment(base, size, std::move(own));
}

shared_memory_segment::shared_memory_segment(shared_memory_segment&& other) noexcept
    : base_(other.base_), size_(other.size_), descriptor_(std::move(other.descriptor_)) {
  other.base_ = nullptr;
  other.size_ = 0;
}

shared_memory_segment& shared_memory_segment::operator=(shared_memory_segment&& other) noexcept {
  if (this != &other) {
    unmap();
    base_ = other.base_;
    size_ = other.size_;
    descriptor_ = std::move(other.descriptor_);
    other.base_ = nullptr;
    other.size_ = 0;
  }
  return *this;
}

shared_memory_segment::~shared_memory_segment() {
  unmap();
}

void shared_memory_segment::unmap() noexcept {
  if (base_) ::munmap(base_, size_);
  base_ = nullptr;
  size_ = 0;
}

}  // namespace handoff::transport
