#include "handoff/patterns/independent_tasks/variants.hpp"

#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

constexpr runs_on pooled{.device = true, .host_stand_in = true};
constexpr runs_on device_only{.device = true};
constexpr runs_on cpu_only{.cpu = true};
constexpr auto events = clock_kind::cuda_events;
constexpr auto none = cold_kind::none;

// The process rows time themselves: a warm batch by the pool's own clock, a cold one (reopen:
// the running pool shut down untimed, then a new one started) by the session's.
const task_row rows[] = {
    {.name = "seed",
     .description = "a pool of one process per dataset, each with its own CUDA context",
     .recipe = true,
     .targets = pooled,
     .clock = clock_kind::self,
     .cold = cold_kind::reopen,
     .setup = set_up_seed,
     .floor = seed_floor},
    {.name = "few_workers",
     .description = "a pool of processes sized to the cores, each with its own CUDA context",
     .targets = pooled,
     .clock = clock_kind::self,
     .cold = cold_kind::reopen,
     .setup = set_up_few_workers,
     .floor = few_workers_floor},
    {.name = "batched",
     .description = "one launch reduces every dataset, a CUB block reduction each",
     .targets = device_only,
     .clock = events,
     .cold = none,
     .setup = set_up_batched,
     .floor = batched_floor},
    {.name = "graph",
     .description = "the per-dataset launches captured in one CUDA graph",
     .targets = device_only,
     .clock = events,
     .cold = none,
     .setup = set_up_graph,
     .floor = graph_floor},
    {.name = "streams",
     .description = "one process, the datasets spread over several streams",
     .targets = device_only,
     .clock = events,
     .cold = none,
     .setup = set_up_streams,
     .floor = streams_floor},
    {.name = "cpu_serial",
     .description = "every dataset summed on one CPU thread",
     .targets = cpu_only,
     .clock = clock_kind::wall,
     .cold = none,
     .setup = set_up_cpu_serial,
     .threads = host_threads::calling_only},
    {.name = "cpu_threads",
     .description = "the datasets summed by CPU threads",
     .targets = cpu_only,
     .clock = clock_kind::wall,
     .cold = none,
     .setup = set_up_cpu_threads},
};

}  // namespace

variant_table<task_point, task_case> independent_tasks_variants() {
  return rows;
}

}  // namespace handoff::patterns::independent_tasks
