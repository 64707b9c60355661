#include "support/leak_checks.hpp"

#include <signal.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <string>

namespace handoff::leak_checks {

std::set<std::string> shm_segments_containing(std::string_view fragment) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm")) {
    const auto name = entry.path().filename().string();
    if (name.find(fragment) != std::string::npos) names.insert(name);
  }
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
