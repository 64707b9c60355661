#pragma once
// What every pool_prep session shares: the kind of output memory its variant writes into, and the
// figures every row reports (its workers, and one chunk's preparation time, measured after the
// run for its floor).

#include <sys/types.h>

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/patterns/pool_prep/variants.hpp"

namespace handoff::patterns::pool_prep {

class batch_session : public session<batch_case> {
 public:
  batch_session(output_memory memory, std::size_t workers, std::size_t chunk_elements)
      : memory_(memory), workers_(workers), chunk_elements_(chunk_elements) {}

  void poison(batch_case& work) override { work.poison(memory_); }
  std::vector<named_figure> figures() const override {
    return {{"workers", static_cast<double>(workers_)},
            {"chunk_prep_seconds", measure_chunk_prep_seconds(chunk_elements_)}};
  }

 protected:
  std::span<float> output_of(batch_case& work) const { return work.output(memory_); }

 private:
  output_memory memory_;
  std::size_t workers_;
  std::size_t chunk_elements_;
};

// Page-locked only where a GPU owner copies into it.
inline output_memory streamed_output(compute_target target) {
  return target == compute_target::device ? output_memory::page_locked : output_memory::pageable;
}

// A session that is a pool of worker processes (map_pool, shared_gpu_pool): warm rows keep the
// pool between batches, as a script keeps its Pool; cold rows start a new one for every batch.
template <class Pool>
class pool_session final : public batch_session {
 public:
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
