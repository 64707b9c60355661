#include "handoff/transport/process_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <string_view>
#include <system_error>

namespace handoff::transport {

namespace {

enum class stat_reading { read, gone, unreadable };

// The fields of /proc/ID/stat after the command name, in `buffer`. "id (command) state ...": the
// command may hold anything, so they follow the last ')'.
stat_reading fields_after_command(int id, std::array<char, 1024>& buffer,
                                  std::string_view& fields) noexcept {
  std::array<char, 32> path{};
  std::snprintf(path.data(), path.size(), "/proc/%d/stat", id);
  const int fd = ::open(path.data(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return errno == ENOENT || errno == ESRCH ? stat_reading::gone : stat_reading::unreadable;
  }
  const ssize_t got = ::read(fd, buffer.data(), buffer.size());
  const int read_error = errno;
  ::close(fd);
  // A process on its way out reads as nothing.
  if (got == 0 || (got < 0 && read_error == ESRCH)) return stat_reading::gone;
  if (got < 0) return stat_reading::unreadable;
  const std::string_view stat(buffer.data(), static_cast<std::size_t>(got));
  const auto command_end = stat.rfind(')');
  if (command_end == std::string_view::npos || command_end + 2 >= stat.size()) {
    return stat_reading::unreadable;
  }
  fields = stat.substr(command_end + 2);
  return stat_reading::read;
}

// The last core is field 39; the fields after the command name start at field 3.
constexpr int fields_before_last_core = 39 - 3;

}  // namespace

std::optional<char> process_state_letter(int id) noexcept {
  std::array<char, 1024> buffer{};
  std::string_view fields;
  switch (fields_after_command(id, buffer, fields)) {
    case stat_reading::gone:
      return std::nullopt;
    case stat_reading::unreadable:
      return '?';
    case stat_reading::read:
      break;
  }
  return fields.front();
}

int process_last_core(int id) noexcept {
  std::array<char, 1024> buffer{};
  std::string_view fields;
  if (fields_after_command(id, buffer, fields) != stat_reading::read) return -1;
  for (int field = 0; field < fields_before_last_core; ++field) {
    const auto space = fields.find(' ');
    if (space == std::string_view::npos) return -1;
    fields.remove_prefix(space + 1);
  }
  int core = -1;
  const auto [end, error] = std::from_chars(fields.data(), fields.data() + fields.size(), core);
  return error == std::errc{} ? core : -1;
}

std::optional<int> process_parent(int id) noexcept {
  std::array<char, 1024> buffer{};
  std::string_view fields;
  if (fields_after_command(id, buffer, fields) != stat_reading::read) return std::nullopt;
  // "state parent ...": the parent follows the state letter.
  const auto space = fields.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  fields.remove_prefix(space + 1);
  int parent = 0;
  const auto [end, error] = std::from_chars(fields.data(), fields.data() + fields.size(), parent);
  if (error != std::errc{} || end == fields.data()) return std::nullopt;
  return parent;
}

std::string process_state_text(int id) {
  const auto letter = process_state_letter(id);
  if (!letter) return "gone";
  switch (*letter) {
    case 'R':
      return "running";
    case 'S':
      return "sleeping";
    case 'D':
      return "in uninterruptible sleep";
    case 'T':
      return "stopped by a signal";
    case 't':
      return "stopped by a debugger";
    case 'Z':
      return "a zombie";
    case '?':
      return "state unknown";
    default:
      return std::string("state ") + *letter;
  }
}

std::vector<int> process_threads(int id) {
  std::vector<int> threads;
  std::error_code error;
  const auto tasks = std::filesystem::path("/proc") / std::to_string(id) / "task";
  for (const auto& task : std::filesystem::directory_iterator(tasks, error)) {
    const auto name = task.path().filename().string();
    int thread = 0;
    if (std::from_chars(name.data(), name.data() + name.size(), thread).ec == std::errc()) {
      threads.push_back(thread);
    }
  }
  std::sort(threads.begin(), threads.end());
  return threads;
}

}  // namespace handoff::transport
