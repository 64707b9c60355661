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
    {"seed", pooled, clock_kind::self, cold_kind::reopen, set_up_seed, seed_floor},
    {"few_workers", pooled, clock_kind::self, cold_kind::reopen, set_up_few_workers,
     few_workers_floor},
    {"batched", device_only, events, none, set_up_batched, batched_floor},
    {"graph", device_only, events, none, set_up_graph, graph_floor},
    {"streams", device_only, events, none, set_up_streams, streams_floor},
    {"cpu_serial", cpu_only, clock_kind::wall, none, set_up_cpu_serial, nullptr},
    {"cpu_threads", cpu_only, clock_kind::wall, none, set_up_cpu_threads, nullptr},
};

}  // namespace

variant_table<task_point, task_case> independent_tasks_variants() {
  return rows;
}

}  // namespace handoff::patterns::independent_tasks
