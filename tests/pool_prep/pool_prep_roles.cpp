// The worker roles pool_prep's pools start; every pool_prep test program carries them.

#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/patterns/pool_prep/ring_worker.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns::pool_prep {

HANDOFF_WORKER_ROLE(map_worker_role, run_map_worker);
HANDOFF_WORKER_ROLE(ring_worker_role, run_ring_worker);

}  // namespace handoff::patterns::pool_prep
