#pragma once
// The GPU worker process of queued_worker. Executables that run the pattern register it with
//   HANDOFF_WORKER_ROLE(queued_worker::gpu_worker_role, queued_worker::run_gpu_worker);

#include <span>
#include <string>

namespace handoff::patterns::queued_worker {

inline constexpr const char* gpu_worker_role = "queued_worker_gpu_worker";

int run_gpu_worker(std::span<const std::string> arguments);

}  // namespace handoff::patterns::queued_worker
