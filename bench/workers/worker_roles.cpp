#include "worker_roles.hpp"

#include "context_probe.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "pipe_sink.hpp"

namespace handoff::bench {
namespace {

int context_probe_entry(std::span<const std::string>) {
  return run_context_probe();
}

int pipe_sink_entry(std::span<const std::string>) {
  return run_pipe_sink();
}

HANDOFF_WORKER_ROLE(context_probe_role, context_probe_entry);
HANDOFF_WORKER_ROLE(pipe_sink_role, pipe_sink_entry);

}  // namespace

std::vector<std::string> worker_command(const std::string& role) {
  return transport::worker_command(role);
}

}  // namespace handoff::bench
