#include "handoff/transport/shared_memory_segment.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>

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

// ---- what the machine can give ---------------------------------------------------------------

std::optional<std::uint64_t> parse_number(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.remove_suffix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The value of "key value" or "key: value kB" in a file of such lines.
std::optional<std::uint64_t> keyed_value(const std::string& text, std::string_view key) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    if (!(fields >> name >> value)) continue;
    if (!name.empty() && name.back() == ':') name.pop_back();
    if (name != key) continue;
    std::string unit;
    fields >> unit;
    return unit == "kB" ? value * 1024 : value;
  }
  return std::nullopt;
}

// A cgroup's limit less what it uses and cannot reclaim; nothing when it sets no limit.
std::optional<std::uint64_t> cgroup_headroom(const std::filesystem::path& directory,
                                             const char* limit_file, const char* usage_file,
                                             const char* inactive_key) {
  const auto limit_text = read_small_file(directory / limit_file);
  if (!limit_text) return std::nullopt;
  const auto limit = parse_number(*limit_text);  // "max" (v2) parses as nothing: no limit
  // v1 writes "no limit" as the largest page-aligned signed 64-bit number.
  if (!limit || *limit >= (std::uint64_t{1} << 62)) return std::nullopt;
  const auto usage_text = read_small_file(directory / usage_file);
  const auto usage = usage_text ? parse_number(*usage_text) : std::nullopt;
  if (!usage) return std::nullopt;
  std::uint64_t reclaimable = 0;
  if (const auto stat = read_small_file(directory / "memory.stat")) {
    reclaimable = keyed_value(*stat, inactive_key).value_or(0);
  }
  const std::uint64_t held = *usage - std::min(*usage, reclaimable);
  return *limit - std::min(*limit, held);
}

void limit_by(memory_headroom& headroom, std::uint64_t bytes, std::string what) {
  if (bytes >= headroom.bytes) return;
  headroom.bytes = static_cast<std::size_t>(bytes);
  headroom.limited_by = std::move(what);
}

// Walks from this process's cgroup up to the hierarchy's root, limiting by every limit on the way.
void limit_by_cgroups(memory_headroom& headroom, const std::filesystem::path& hierarchy,
                      const std::string& cgroup, bool version_2) {
  std::filesystem::path relative = std::filesystem::path(cgroup).relative_path();
  while (true) {
    const auto directory = hierarchy / relative;
    const auto room =
        version_2 ? cgroup_headroom(directory, "memory.max", "memory.current", "inactive_file")
                  : cgroup_headroom(directory, "memory.limit_in_bytes", "memory.usage_in_bytes",
                                    "total_inactive_file");
    if (room) limit_by(headroom, *room, "the limit of memory cgroup " + directory.string());
    if (relative.empty()) return;
    relative = relative.parent_path();
  }
}

}  // namespace

memory_headroom shared_memory_headroom(const std::filesystem::path& system_root) {
  memory_headroom headroom{std::numeric_limits<std::size_t>::max(), "nothing (no limit found)"};
  if (const auto meminfo = read_small_file(system_root / "proc/meminfo")) {
    if (const auto available = keyed_value(*meminfo, "MemAvailable")) {
      limit_by(headroom, *available, "MemAvailable in /proc/meminfo");
    }
  }
  const auto cgroups = read_small_file(system_root / "proc/self/cgroup");
  if (!cgroups) return headroom;
  // "0::/path" for cgroup v2; "N:controller,controller:/path" for each v1 hierarchy.
  std::istringstream lines(*cgroups);
  std::string line;
  const auto cgroup_root = system_root / "sys/fs/cgroup";
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (line.compare(0, first, "0") == 0 && controllers.empty()) {
      limit_by_cgroups(headroom, cgroup_root, path, true);
      continue;
    }
    std::istringstream names(controllers);
    std::string name;
    while (std::getline(names, name, ',')) {
      if (name == "memory") limit_by_cgroups(headroom, cgroup_root / "memory", path, false);
    }
  }
  return headroom;
}

namespace {

// ---- creating and attaching ------------------------------------------------------------------

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
  const memory_headroom headroom = shared_memory_headroom();
  if (bytes > headroom.bytes) {
    throw shared_memory_full("reserving " + describe_byte_count(bytes) + " of shared memory for " +
                                 purpose + ": more than the " +
                                 describe_byte_count(headroom.bytes) +
                                 " this machine can give (limited by " + headroom.limited_by + ")",
                             ENOMEM);
  }
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
