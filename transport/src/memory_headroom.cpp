#include "handoff/transport/memory_headroom.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <limits>
#include <optional>
#include <sstream>
#include <string_view>

#include "handoff/transport/fd_io.hpp"

namespace handoff::transport {
namespace {

std::optional<std::uint64_t> parse_number(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
    text.remove_suffix(1);
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// A file of a few lines, whole (at most its first 64 KiB); nothing when it cannot be opened.
std::optional<std::string> read_small_file(const std::filesystem::path& path) {
  const unique_fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return std::nullopt;
  std::string text(std::size_t{1} << 16, '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const ssize_t got = ::read(fd.get(), text.data() + filled, text.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return std::nullopt;
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  text.resize(filled);
  return text;
}

// The value of "key value" or "key: value kB" in a file of such lines.
std::optional<std::uint64_t> keyed_value(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    const auto end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    if (!line.starts_with(key)) continue;
    line.remove_prefix(key.size());
    if (line.starts_with(':')) line.remove_prefix(1);
    if (line.empty() || line.front() != ' ') continue;  // a longer key that starts with this one
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    const bool kibibytes = line.ends_with(" kB");
    if (kibibytes) line.remove_suffix(3);
    const auto value = parse_number(line);
    if (!value) return std::nullopt;
    return kibibytes ? *value * 1024 : *value;
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

}  // namespace handoff::transport
