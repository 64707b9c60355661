#pragma once
// The session of the process variants (seed, few_workers): multiprocessing.Pool(N).map over the
// case's datasets, on a task_pool started by the first run and kept for the next (warm). A cold
// run (the row's run_cold) first shuts the running pool down, untimed, for one pool at a time: a
// hundred CUDA contexts hold a good share of the device's memory; then it times, by its own
// clock, starting a pool (every worker's spawn and context) plus one batch, what a script run
// once pays. A warm run's seconds are the batch's own, by the wall clock.
//
// Floor: warm, device: every dataset crosses a pipe (the coordinator writes them all through one
// thread) and PCIe from pageable memory, and each task pays one synchronised launch; the workers
// run side by side, so the critical path holds ceil(datasets / workers) of those. Cold: plus one
// process_start_with_context, as if every worker started at once. Host stand-in: the pipe, plus
// the workers' summing (their kernel stage, averaged over the workers used) spread over the cores.

#include <sys/types.h>

#include <optional>
#include <vector>

#include "handoff/patterns/independent_tasks/task_case.hpp"
#include "handoff/patterns/independent_tasks/task_pool.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::independent_tasks {

class pool_session final : public session<task_case> {
 public:
  explicit pool_session(const task_pool_options& options);

  run_result run(task_case& work) override;
  run_result run_cold(task_case& work) override;
  std::vector<pid_t> peers() const override { return peers_; }
  // workers, workers_used (by the last batch), and after cold runs start_seconds: the mean
  // spawn-to-ready time of the cold starts since the last report, the untimed first one left out.
  std::vector<named_figure> figures() const override;
  void shutdown() override;

 private:
  void start_pool();

  task_pool_options options_;
  std::optional<task_pool> pool_;
  std::vector<pid_t> peers_;  // kept after shutdown
  std::size_t workers_used_ = 0;
  mutable int cold_starts_ = 0;  // since the last report
  mutable double cold_start_seconds_ = 0;
};

task_pool_options pool_options(std::size_t workers, compute_target target);

floor_terms process_floor(const task_point& at, std::size_t workers, compute_target target,
                          const measured_run& run);

}  // namespace handoff::patterns::independent_tasks
