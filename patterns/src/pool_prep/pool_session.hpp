#pragma once
// The session of a row whose variant is a pool of worker processes (map_pool, shared_gpu_pool):
// the pool is the session, so warm rows keep it (its workers, and any rings and registrations)
// between batches, as a script keeps its Pool, and cold rows start a new one for every batch.

#include <sys/types.h>

#include <cstddef>
#include <vector>

#include "batch_session.hpp"

namespace handoff::patterns::pool_prep {

template <class Pool>
class pool_session final : public batch_session {
 public:
  // options: what Pool is constructed from (map_pool_options, shared_gpu_options).
  template <class Options>
  pool_session(output_memory memory, const point& at, const Options& options)
      : batch_session(memory, at.workers, at.elements), pool_(options) {
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
  Pool pool_;
  std::vector<pid_t> pids_;  // as started, so that a test can check they are gone after shutdown
};

}  // namespace handoff::patterns::pool_prep
