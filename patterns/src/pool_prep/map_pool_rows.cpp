// The seed and cpu_pool rows: one map_pool (map_pool.hpp) each, with the CUDA step in its workers
// (seed, on the device) or the add on the workers' one CPU thread (cpu_pool; also the seed's host
// stand-in). The pool is the session: warm rows keep it between batches, as a script keeps its
// Pool; cold rows start a new one for every batch.

#include <string>

#include "batch_session.hpp"
#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {
namespace {

class map_pool_session final : public batch_session {
 public:
  map_pool_session(const point& at, compute_target target, const std::string& variant)
      : batch_session(output_memory::pageable, at.workers, at.elements),
        pool_({.workers = at.workers, .target = target, .name = "pool-prep-" + variant}) {
    for (std::size_t index = 0; index < pool_.size(); ++index)
      pids_.push_back(pool_.worker_pid(index));
  }

  run_result run(batch_case& work) override {
    return {.stages = pool_.run(work.inputs(), output_of(work))};
  }
  std::vector<pid_t> peers() const override { return pids_; }
  void shutdown() override {
    if (!pool_.terminated()) pool_.shutdown();
  }

 private:
  map_pool pool_;
  std::vector<pid_t> pids_;  // as started, so that a test can check they are gone after shutdown
};

}  // namespace

batch_session_ptr set_up_cpu_pool(const point& at, compute_target) {
  return std::make_unique<map_pool_session>(at, compute_target::host_stand_in, "cpu_pool");
}

batch_session_ptr set_up_seed(const point& at, compute_target target) {
  return std::make_unique<map_pool_session>(at, target, "seed");
}

}  // namespace handoff::patterns::pool_prep
