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
    {"seed", pooled, wall, fresh, set_up_seed_split, seed_split_floor},
    {"shm", pooled, wall, fresh, set_up_shm_split, shm_split_floor},
    {"overlapped", pooled, wall, fresh, set_up_overlapped_split, overlapped_split_floor},
    {"gpu_reduce", device_only, wall, cold_kind::none, set_up_gpu_reduce, gpu_reduce_floor},
    {"cpu_serial", cpu_only, wall, cold_kind::none, set_up_cpu_serial, nullptr},
};

}  // namespace

variant_table<split_point, split_case> postproc_split_variants() {
  return rows;
}

}  // namespace handoff::patterns::postproc_split
