#include "handoff/transport/process_state.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace handoff::transport {

std::optional<char> process_state_letter(int id) noexcept {
  char path[32];
  std::snprintf(path, sizeof(path), "/proc/%d/stat", id);
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT || errno == ESRCH) return std::nullopt;
    return '?';
  }
  char stat[512];
  const ssize_t got = ::read(fd, stat, sizeof(stat) - 1);
  const int read_error = errno;
  ::close(fd);
  // A process on its way out reads as nothing.
  if (got == 0 || (got < 0 && read_error == ESRCH)) return std::nullopt;
  if (got < 0) return '?';
  stat[got] = '\0';
  // "id (command) state ...": the command may hold anything, so the state follows the last ')'.
  const char* command_end = std::strrchr(stat, ')');
  if (command_end == nullptr || command_end + 2 >= stat + got) return '?';
  return command_end[2];
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

}  // namespace handoff::transport
