#include "handoff/transport/process/worker_role.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <charconv>
#include <csignal>
#include <cstdio>
#include <exception>
#include <map>

#include "handoff/context_release.hpp"
#include "handoff/transport/peer_cores.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::transport {
namespace {

std::map<std::string, worker_entry, std::less<>>& registered_roles() {
  static std::map<std::string, worker_entry, std::less<>> roles;
  return roles;
}

// Ties the worker's life to its parent's. The death signal is sent when the thread that
// spawned the worker ends, not the process: handoff starts workers from the coordinator's main
// thread, which lives as long as it. A parent that died before prctl took effect has already
// handed the worker to another process, which getppid() then names.
bool tie_to_parent(std::string_view expected_parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (expected_parent.empty()) return true;
  pid_t parent = 0;
  const auto [end, error] = std::from_chars(
      expected_parent.data(), expected_parent.data() + expected_parent.size(), parent);
  return error == std::errc{} && end == expected_parent.data() + expected_parent.size() &&
         parent == ::getppid();
}

}  // namespace

void register_worker_role(std::string_view name, worker_entry entry) {
  registered_roles().emplace(std::string(name), entry);
}

std::optional<int> run_worker_role_if_requested(int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  const std::string_view flag = argv[1];
  if (!flag.starts_with(worker_flag)) return std::nullopt;
  const std::string_view role = flag.substr(worker_flag.size());
  const auto found = registered_roles().find(role);
  if (found == registered_roles().end()) {
    std::fprintf(stderr, "%s: unknown worker role '%.*s'; this program knows:", argv[0],
                 static_cast<int>(role.size()), role.data());
    for (const auto& [name, entry] : registered_roles())
      std::fprintf(stderr, " %s", name.c_str());
    std::fprintf(stderr, "\n");
    return 2;
  }
  int first_argument = 2;
  std::string_view expected_parent;
  if (argc > 2 && std::string_view(argv[2]).starts_with(worker_parent_flag)) {
    expected_parent = std::string_view(argv[2]).substr(worker_parent_flag.size());
    first_argument = 3;
  }
  if (!tie_to_parent(expected_parent)) {
    std::fprintf(stderr, "worker %.*s: started by process %.*s, which is gone (parent now %d)\n",
                 static_cast<int>(role.size()), role.data(),
                 static_cast<int>(expected_parent.size()), expected_parent.data(),
                 static_cast<int>(::getppid()));
    return worker_orphaned_exit_code;
  }
  count_parent_as_peer();
  const std::vector<std::string> arguments(argv + first_argument, argv + argc);
  int exit_code = worker_uncaught_exit_code;
  try {
    exit_code = found->second(arguments);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "worker %.*s: %s\n", static_cast<int>(role.size()), role.data(),
                 error.what());
  } catch (...) {
    std::fprintf(stderr, "worker %.*s: unknown exception\n", static_cast<int>(role.size()),
                 role.data());
  }
  release_ipc_contexts();
  return exit_code;
}

std::vector<std::string> worker_command(std::string_view role,
                                        const std::vector<std::string>& arguments) {
  std::vector<std::string> command{self_executable_path(),
                                   std::string(worker_flag) + std::string(role),
                                   std::string(worker_parent_flag) + std::to_string(::getpid())};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return command;
}

}  // namespace handoff::transport
