#include "handoff/transport/process/worker_role.hpp"

#include <cstdio>
#include <exception>
#include <map>

#include "handoff/transport/spawned_process.hpp"

namespace handoff::transport {
namespace {

std::map<std::string, worker_entry, std::less<>>& registered_roles() {
  static std::map<std::string, worker_entry, std::less<>> roles;
  return roles;
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
  const std::vector<std::string> arguments(argv + 2, argv + argc);
  try {
    return found->second(arguments);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "worker %.*s: %s\n", static_cast<int>(role.size()), role.data(),
                 error.what());
  } catch (...) {
    std::fprintf(stderr, "worker %.*s: unknown exception\n", static_cast<int>(role.size()),
                 role.data());
  }
  return worker_uncaught_exit_code;
}

std::vector<std::string> worker_command(std::string_view role,
                                        const std::vector<std::string>& arguments) {
  std::vector<std::string> command{self_executable_path(),
                                   std::string(worker_flag) + std::string(role)};
  command.insert(command.end(), arguments.begin(), arguments.end());
  return command;
}

}  // namespace handoff::transport
