#pragma once
// The CPU pool's worker: the seed's `postprocess` (np.sum of one chunk) in a spawned process. It
// never touches CUDA: whatever the compute target, its chunk is in host memory by the time it is
// asked, either in the request (sent by value) or in a shared-memory segment it has attached.
// A program that starts summing pools registers the role with
//   HANDOFF_WORKER_ROLE(summing_worker_role, run_summing_worker);

#include <span>
#include <string>

namespace handoff::patterns::postproc_split {

inline constexpr const char* summing_worker_role = "postproc_split_summer";

// Serves requests until the coordinator closes the channel (exit code 0).
int run_summing_worker(std::span<const std::string> arguments);

}  // namespace handoff::patterns::postproc_split
