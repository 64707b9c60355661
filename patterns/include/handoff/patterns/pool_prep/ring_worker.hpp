#pragma once
// The worker of the shared_gpu variant: for every chunk of a batch, in order, it prepares its piece
// (piece w of the pool's w workers, cut like np.array_split) straight into a slot of its own
// shared-memory ring (a, then b, in one slot) and publishes the slot to the GPU owner, with the
// chunk's index as the tag. It never touches CUDA. Started by shared_gpu_pool,
// which passes the ring over the connection (SCM_RIGHTS); executables that run it register
//   HANDOFF_WORKER_ROLE(pool_prep::ring_worker_role, pool_prep::run_ring_worker);
// Argument: the patience in milliseconds.

#include <span>
#include <string>
#include <string_view>

namespace handoff::patterns::pool_prep {

inline constexpr std::string_view ring_worker_role = "pool_prep_ring";

int run_ring_worker(std::span<const std::string> arguments);

}  // namespace handoff::patterns::pool_prep
