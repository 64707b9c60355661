#include "worker_roles.hpp"

#include <cstdio>
#include <string_view>

#include "context_probe.hpp"
#include "handoff/patterns/spawned_process.hpp"
#include "pipe_sink.hpp"

namespace handoff::bench {

std::optional<int> run_worker_role_if_requested(int argc, char** argv) {
  if (argc < 2) return std::nullopt;
  const std::string_view argument = argv[1];
  if (!argument.starts_with(worker_flag)) return std::nullopt;
  const std::string_view role = argument.substr(std::string_view(worker_flag).size());
  if (role == context_probe_role) return run_context_probe();
  if (role == pipe_sink_role) return run_pipe_sink();
  std::fprintf(stderr, "handoff_bench: unknown worker role '%.*s'\n", static_cast<int>(role.size()),
               role.data());
  return 2;
}

std::vector<std::string> worker_command(const std::string& role) {
  return {patterns::self_executable_path(), worker_flag + role};
}

}  // namespace handoff::bench
