// The seed and cpu_pool rows: one map_pool (map_pool.hpp) each, with the CUDA step in its workers
// (seed, on the device) or the add on the workers' one CPU thread (cpu_pool; also the seed's host
// stand-in). The pool is the session (pool_session).

#include <string>

#include "batch_session.hpp"
#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {
namespace {

batch_session_ptr map_pool_session(const point& at, compute_target target,
                                   const std::string& variant) {
  return std::make_unique<pool_session<map_pool>>(
      output_memory::pageable, at,
      map_pool_options{.workers = at.workers, .target = target, .name = "pool-prep-" + variant});
}

}  // namespace

batch_session_ptr set_up_cpu_pool(const point& at, compute_target) {
  return map_pool_session(at, compute_target::host_stand_in, "cpu_pool");
}

batch_session_ptr set_up_seed(const point& at, compute_target target) {
  return map_pool_session(at, target, "seed");
}

}  // namespace handoff::patterns::pool_prep
