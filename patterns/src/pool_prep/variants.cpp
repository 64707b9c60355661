// pool_prep's table: one line per variant. Each variant's session and set-up live beside the
// variant (rows.hpp says where); the floors are in floors.cpp.

#include "rows.hpp"

namespace handoff::patterns::pool_prep {
namespace {

constexpr runs_on cpu_only{.cpu = true};
constexpr runs_on device_or_host{.device = true, .host_stand_in = true};
using enum clock_kind;
using enum cold_kind;

// One line per variant, so that the table reads as one.
// clang-format off
const row rows[] = {
    {.name = "cpu_serial", .description = "every chunk prepared and added on one CPU thread", .targets = cpu_only,       .clock = wall, .cold = none,        .setup = set_up_cpu_serial, .floor = cpu_serial_floor, .threads = host_threads::calling_only},
    {.name = "cpu_pool", .description = "a CPU process pool prepares and adds the chunks",   .targets = cpu_only,       .clock = wall, .cold = fresh_setup, .setup = set_up_cpu_pool,   .floor = cpu_pool_floor},
    {.name = "seed", .description = "spawned workers, each with its own CUDA context, pageable copies and a fresh device allocation per chunk", .recipe = true,       .targets = device_or_host, .clock = wall, .cold = fresh_setup, .setup = set_up_seed,       .floor = seed_floor},
    {.name = "shared_gpu", .description = "workers prepare chunks in shared pinned memory; one GPU owner streams them", .targets = device_or_host, .clock = wall, .cold = fresh_setup, .setup = set_up_shared_gpu, .floor = streamed_floor},
    {.name = "threads", .description = "one process: preparation threads and CUDA streams",    .targets = device_or_host, .clock = wall, .cold = none,        .setup = set_up_threads,    .floor = streamed_floor},
};
// clang-format on

}  // namespace

variant_table<point, batch_case> pool_prep_variants() {
  return rows;
}

}  // namespace handoff::patterns::pool_prep
