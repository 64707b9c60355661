// cpu_map as a session of seed 002's table: set-up spawns the pool (so a cold row times the spawn
// plus one batch, its shutdown left outside the clock), run() is one batch into the case's output.
// Floor: the messages cross a socketpair, so it is every byte the batch writes, both directions,
// at pipe_between_processes; far below what a per-message round trip costs, which is the point of
// the row. The cold row adds no process-start event: the suite's process_start_with_context
// ceiling includes creating a CUDA context, which a CPU worker never does, so it would price a
// floor above what the variant can reach.

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "map_protocol.hpp"

namespace handoff::patterns::elementwise {
namespace {

constexpr const char* workers_figure = "workers";

// Timed by the wall clock. Process start (cold) lands in wait: none of the stages is the spawn.
class cpu_map_session final : public extended_session {
 public:
  cpu_map_session() = default;

  run_result run(extended_case& work) override {
    last_ = pool_.run(work.problem(), work.out());
    return {.stages = last_.stages};
  }
  std::vector<named_figure> figures() const override {
    return {{"messages", static_cast<double>(last_.messages)},
            {workers_figure, static_cast<double>(pool_.size())}};
  }
  std::vector<pid_t> peers() const override {
    std::vector<pid_t> pids;
    for (std::size_t worker = 0; worker < pool_.size(); ++worker)
      pids.push_back(pool_.worker_pid(worker));
    return pids;
  }
  void shutdown() override { pool_.shutdown(); }

 private:
  map_pool pool_;
  map_batch_stats last_;
};

double figure(const measured_run& run, std::string_view name) {
  for (const auto& each : run.figures)
    if (each.name == name) return each.value;
  throw std::logic_error("cpu_map floor: the session reported no '" + std::string(name) + "'");
}

}  // namespace

std::uint64_t map_batch_bytes(extended_workload workload, std::size_t size, std::size_t workers) {
  using map_protocol::wire_bytes;
  const bool affine = workload == extended_workload::affine;
  const std::uint64_t n = size;
  const std::uint64_t task_values =
      affine ? n : (workload == extended_workload::neg_b_over_a ? 2 : 1);
  const std::uint64_t result_values = affine ? n : 1;
  const std::uint64_t setup_values = affine ? n * n + n : 0;
  return workers * wire_bytes(setup_values) +
         n * (wire_bytes(task_values) + wire_bytes(result_values));
}

std::unique_ptr<extended_session> set_up_extended_cpu_map(const extended_point&, compute_target) {
  return std::make_unique<cpu_map_session>();
}

floor_terms extended_cpu_map_floor(const extended_point& at, compute_target,
                                   const measured_run& run) {
  const auto workers = static_cast<std::size_t>(figure(run, workers_figure));
  floor_terms floor;
  floor.add_bytes(ceiling::pipe,
                  static_cast<double>(map_batch_bytes(at.workload, at.size, workers)));
  return floor;
}

}  // namespace handoff::patterns::elementwise
