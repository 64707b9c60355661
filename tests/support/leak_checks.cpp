#include "support/leak_checks.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

namespace handoff::leak_checks {
namespace {

constexpr std::string_view memfd_prefix = "/memfd:";
constexpr std::string_view deleted_suffix = " (deleted)";

// Adds the segment name in text (a descriptor's link or a line of maps) if it names one of ours.
void add_if_segment(std::string_view text, std::string_view fragment,
                    std::set<std::string>& names) {
  const auto start = text.find(memfd_prefix);
  if (start == std::string_view::npos) return;
  std::string_view name = text.substr(start + memfd_prefix.size());
  if (name.ends_with(deleted_suffix)) name.remove_suffix(deleted_suffix.size());
  if (name.starts_with("handoff-") && name.find(fragment) != std::string_view::npos) {
    names.emplace(name);
  }
}

}  // namespace

std::set<std::string> held_segments_containing(std::string_view fragment) {
  std::set<std::string> names;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd", ignored)) {
    std::error_code gone;  // the descriptor that listed the directory closes before it is read
    const auto target = std::filesystem::read_symlink(entry.path(), gone);
    if (!gone) add_if_segment(target.string(), fragment, names);
  }
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line))
    add_if_segment(line, fragment, names);
  return names;
}

bool process_runs(pid_t pid) {
  std::ifstream stat_file("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(stat_file, stat)) return false;
  // "pid (command) state ...": the command may hold spaces, so the state follows the last ')'.
  const auto command_end = stat.rfind(')');
  if (command_end == std::string::npos || command_end + 2 >= stat.size()) return false;
  const char state = stat[command_end + 2];
  return state != 'Z' && state != 'X';
}

bool process_exists(pid_t pid) {
  return ::kill(pid, 0) == 0 || errno != ESRCH;
}

}  // namespace handoff::leak_checks
