#include "worker_roles.hpp"

#include "context_probe.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/patterns/pool_prep/ring_worker.hpp"
#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
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

// The patterns' own workers, which their variants start as this program in a role.
HANDOFF_WORKER_ROLE(patterns::elementwise::map_worker_role, patterns::elementwise::run_map_worker);
HANDOFF_WORKER_ROLE(patterns::independent_tasks::task_worker_role,
                    patterns::independent_tasks::run_task_worker);
HANDOFF_WORKER_ROLE(patterns::pool_prep::map_worker_role, patterns::pool_prep::run_map_worker);
HANDOFF_WORKER_ROLE(patterns::pool_prep::ring_worker_role, patterns::pool_prep::run_ring_worker);
HANDOFF_WORKER_ROLE(patterns::postproc_split::summing_worker_role,
                    patterns::postproc_split::run_summing_worker);
HANDOFF_WORKER_ROLE(patterns::queued_worker::gpu_worker_role,
                    patterns::queued_worker::run_gpu_worker);
HANDOFF_WORKER_ROLE(patterns::tensor_receiver_role, patterns::run_tensor_receiver);

}  // namespace

std::vector<std::string> worker_command(const std::string& role) {
  return transport::worker_command(role);
}

}  // namespace handoff::bench
