#include "handoff/transport/shared_memory_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <random>
#include <string_view>

#include "handoff/transport/memory_headroom.hpp"

// Newer than the C library's headers here (Linux 6.3): no executable mappings, ever.
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008U
#endif

namespace handoff::transport {
namespace {

// The kernel's limit on a memory file's name (NAME_MAX less "memfd:").
constexpr std::size_t max_memfd_name_bytes = 249;

[[noreturn]] void throw_errno(const std::string& what, int error) {
  const std::string message = what + ": " + std::strerror(error);
  if (error == ENOSPC || error == ENOMEM) {
    throw shared_memory_full(message + " (the machine has no room for it)", error);
  }
  if (error == EFBIG || error == EOVERFLOW) throw shared_memory_too_large(message, error);
  throw shared_memory_error(message, error);
}

// ---- creating and attaching ------------------------------------------------------------------

// Reading the figures costs several small files. Within headroom_reuse a reading is used again,
// less every reservation granted since, so a burst of segments (a pool's rings, a fuzzer's inputs)
// reads them once and together never gets more than that reading allowed. A request beyond what
// is left is checked against a fresh reading before it is refused.
constexpr std::chrono::milliseconds headroom_reuse{50};

void take_from_headroom(std::size_t bytes, const std::string& purpose) {
  static std::mutex mutex;
  static std::chrono::steady_clock::time_point read_at;
  static memory_headroom left;
  const std::lock_guard hold(mutex);
  const auto now = std::chrono::steady_clock::now();
  if (read_at == std::chrono::steady_clock::time_point() || now - read_at > headroom_reuse ||
      bytes > left.bytes) {
    left = shared_memory_headroom();
    read_at = now;
  }
  if (bytes > left.bytes) {
    throw shared_memory_full("reserving " + describe_byte_count(bytes) + " of shared memory for " +
                                 purpose + ": more than the " + describe_byte_count(left.bytes) +
                                 " this machine can give (limited by " + left.limited_by + ")",
                             ENOMEM);
  }
  left.bytes -= bytes;
}

unique_fd create_memory_file(const std::string& name) {
  unique_fd fd(::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_NOEXEC_SEAL));
  // Kernels before 6.3 know no MFD_NOEXEC_SEAL.
  if (fd.get() < 0 && errno == EINVAL) {
    fd = unique_fd(::memfd_create(name.c_str(), MFD_CLOEXEC | MFD_ALLOW_SEALING));
  }
  if (fd.get() < 0) throw_errno("memfd_create " + name, errno);
  // Only its owner may open it again through /proc/<pid>/fd, as the design's mode 0600 asks.
  if (::fchmod(fd.get(), 0600) != 0) throw_errno("fchmod of shared memory " + name, errno);
  return fd;
}

// Creates, fills with real pages and seals a segment; returns its descriptor.
unique_fd open_reserved_segment(std::size_t bytes, const std::string& purpose) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<off_t>::max())) {
    throw shared_memory_too_large("a shared-memory segment of " + describe_byte_count(bytes) +
                                      " is beyond the largest file offset",
                                  EFBIG);
  }
  // On the kernel's internal mount nothing refuses a reservation too large: it would take pages
  // until the OOM killer stepped in. So the request is checked first.
  take_from_headroom(bytes, purpose);
  const std::string name = unpredictable_segment_name(purpose);
  unique_fd fd = create_memory_file(name);
  int reserved = 0;
  do {
    reserved = ::fallocate(fd.get(), 0, 0, static_cast<off_t>(bytes));
  } while (reserved != 0 && errno == EINTR);
  if (reserved != 0) {
    throw_errno("reserving " + describe_byte_count(bytes) + " of shared memory for " + purpose,
                errno);
  }
  if (::fcntl(fd.get(), F_ADD_SEALS, required_segment_seals()) != 0) {
    throw_errno("sealing the size of shared memory " + name, errno);
  }
  return fd;
}

std::byte* map_shared(int fd, std::size_t bytes) {
  void* base = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    const int error = errno;
    const std::string message =
        "mmap of " + describe_byte_count(bytes) + " of shared memory: " + std::strerror(error);
    // Here ENOMEM means no room in the address space, not a lack of pages.
    if (error == ENOMEM) throw shared_memory_too_large(message, error);
    throw_errno(message, error);
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

int required_segment_seals() noexcept {
  return F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
}

std::string unpredictable_segment_name(const std::string& purpose) {
  std::random_device entropy;
  char suffix[33];
  std::snprintf(suffix, sizeof(suffix), "%08x%08x%08x%08x", entropy(), entropy(), entropy(),
                entropy());
  constexpr std::size_t fixed_bytes = std::string_view("handoff--").size() + 32;
  return "handoff-" + purpose.substr(0, max_memfd_name_bytes - fixed_bytes) + "-" + suffix;
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
  // Without these seals another holder could shrink the file under this mapping, and the next
  // access past its new end would be a SIGBUS.
  const int seals = ::fcntl(fd, F_GET_SEALS);
  if (seals < 0) {
    throw_bad_descriptor(
        fd, std::string("not a sealable memory file (F_GET_SEALS: ") + std::strerror(errno) + ")",
        errno);
  }
  if ((seals & required_segment_seals()) != required_segment_seals()) {
    char found[16];
    std::snprintf(found, sizeof(found), "%#x", static_cast<unsigned>(seals));
    throw_bad_descriptor(fd,
                         std::string("its size is not sealed (seals ") + found +
                             "): another process could shrink it under the mapping",
                         EPERM);
  }
  // Read only now: sealed, the size can no longer change.
  if (::fstat(fd, &status) != 0) throw_bad_descriptor(fd, std::strerror(errno), errno);
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
