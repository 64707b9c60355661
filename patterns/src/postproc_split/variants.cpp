#include "handoff/patterns/postproc_split/variants.hpp"

#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {
namespace {

constexpr runs_on pooled{.device = true, .host_stand_in = true};
constexpr runs_on device_only{.device = true};
constexpr runs_on cpu_only{.cpu = true};
constexpr auto wall = clock_kind::wall;
constexpr auto fresh = cold_kind::fresh_setup;

const split_row rows[] = {
    {.name = "seed",
     .description = "the whole result back to the host, its chunks sent by value to a CPU pool",
     .recipe = true,
     .targets = pooled,
     .clock = wall,
     .cold = fresh,
     .setup = set_up_seed_split,
     .floor = seed_split_floor},
    {.name = "shm",
     .description = "the CPU pool reads its chunks from shared memory",
     .targets = pooled,
     .clock = wall,
     .cold = fresh,
     .setup = set_up_shm_split,
     .floor = shm_split_floor},
    {.name = "overlapped",
     .description = "chunk k+1 comes back while the CPU pool sums chunk k",
     .targets = pooled,
     .clock = wall,
     .cold = fresh,
     .setup = set_up_overlapped_split,
     .floor = overlapped_split_floor},
    {.name = "gpu_reduce",
     .description = "a CUB reduction on the device; only the sum comes back",
     .targets = device_only,
     .clock = wall,
     .cold = cold_kind::none,
     .setup = set_up_gpu_reduce,
     .floor = gpu_reduce_floor},
    {.name = "cpu_serial",
     .description = "the vector add and its sum on one CPU thread",
     .targets = cpu_only,
     .clock = wall,
     .cold = cold_kind::none,
     .setup = set_up_cpu_serial,
     .threads = host_threads::calling_only},
};

}  // namespace

variant_table<split_point, split_case> postproc_split_variants() {
  return rows;
}

}  // namespace handoff::patterns::postproc_split
