// The seed and cpu_pool rows: one map_pool (map_pool.hpp) each, with the CUDA step in its workers
// (seed, on the device) or the add on the workers' one CPU thread (cpu_pool; also the seed's host
// stand-in), in a pool_session.

#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "pool_session.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {

batch_session_ptr set_up_cpu_pool(const point& at, compute_target) {
  return std::make_unique<pool_session<map_pool>>(
      output_memory::pageable, at,
      map_pool_options{.workers = at.workers,
                       .target = compute_target::host_stand_in,
                       .name = "pool-prep-cpu_pool"});
}

batch_session_ptr set_up_seed(const point& at, compute_target target) {
  return std::make_unique<pool_session<map_pool>>(
      output_memory::pageable, at,
      map_pool_options{.workers = at.workers, .target = target, .name = "pool-prep-seed"});
}

constinit const row cpu_pool_variant{
    .name = "cpu_pool",
    .description = "a CPU process pool prepares and adds the chunks",
    .targets = cpu_only,
    .clock = clock_kind::wall,
    .cold = cold_kind::fresh_setup,
    .setup = set_up_cpu_pool,
    .floor = cpu_pool_floor};

constinit const row seed_variant{.name = "seed",
                                 .description =
                                     "spawned workers, each with its own CUDA context, pageable "
                                     "copies and a fresh device allocation per chunk",
                                 .recipe = true,
                                 .targets = device_or_host,
                                 .clock = clock_kind::wall,
                                 .cold = cold_kind::fresh_setup,
                                 .setup = set_up_seed,
                                 .floor = seed_floor};

}  // namespace handoff::patterns::pool_prep
