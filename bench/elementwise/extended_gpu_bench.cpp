// elementwise/<gpu variant>/workload:<square|neg_b_over_a|affine>/...: seed 002's GPU side.
//   gpu_transfers  the PyTorch example's shape: pageable inputs in, the kernel (or cuBLAS sgemm and
//                  the bias kernel), the result out;
//   gpu_resident   the data already on the device: the kernel, or cuBLAS and the bias kernel.
// Floors, from the same run's ceilings:
//   gpu_resident   the inputs read and the output written once at hbm_device_copy (which counts
//                  read plus write bytes), plus one kernel_launch_async. For affine that is W, X,
//                  b and Y only: the suite has no compute ceiling, so the GEMM's 2 n^3 flops are
//                  not priced and its efficiency against this floor is low by design;
//   gpu_transfers  the inputs at pcie_h2d_pageable, the output at pcie_d2h_pageable, plus the
//                  resident floor; the stages run one after another, so the floor is their sum.
// Stages: h2d, kernel and d2h from events recorded between them on the variant's stream.

#include <type_traits>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "extended_bench_common.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/elementwise/extended_gpu_variants.hpp"

namespace handoff::bench {
namespace {

using namespace patterns::elementwise;

void add_resident_floor(benchmark::State& state, const extended_problem& problem) {
  add_floor_bytes(state, ceiling::device_copy,
                  static_cast<double>(problem.input_bytes() + problem.output_bytes()));
  add_floor_events(state, ceiling::launch_async, 1);
}

template <class Variant>
void run_gpu_variant(benchmark::State& state, extended_workload workload, std::size_t size) {
  const auto& data = extended_data_for(workload, size);
  const auto problem = data.problem();
  Variant variant(problem);
  patterns::stage_times stages;
  int calls = 0;
  // Call 0 is the harness's untimed warm-up; when call c >= 2 begins, the timed run c - 1 has
  // finished (the harness waited for its stop event), so its stage events can be read.
  measure_gpu_region(
      state, variant.stream(), [&] { variant.poison_output(); },
      [&] {
        if (calls++ >= 2) stages += variant.last_stages();
        variant.enqueue();
      });
  if (calls >= 2) stages += variant.last_stages();
  finish_extended(state, data, variant.result());
  add_resident_floor(state, problem);
  if constexpr (std::is_same_v<Variant, elementwise_gpu_transfers>) {
    add_floor_bytes(state, ceiling::h2d_pageable, static_cast<double>(problem.input_bytes()));
    add_floor_bytes(state, ceiling::d2h_pageable, static_cast<double>(problem.output_bytes()));
  }
  // One stream, one process: no stage waits on another, so the stages are the measured time
  // (within the few microseconds between the harness's events and the stage events).
  set_stage_counters(state, stages, stages.total());
}

void register_gpu_variants(const bench_environment& environment) {
  for (const auto workload : all_extended_workloads) {
    for (const std::size_t size : extended_sizes(workload, environment.config)) {
      const auto add = [&](const std::string& variant, auto body) {
        register_benchmark(
            extended_benchmark_name(variant, workload, size),
            [workload, size, body](benchmark::State& state) { body(state, workload, size); });
      };
      add("gpu_transfers", run_gpu_variant<elementwise_gpu_transfers>);
      add("gpu_resident", run_gpu_variant<elementwise_gpu_resident>);
    }
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("elementwise/extended/gpu", 1, register_gpu_variants);

}  // namespace handoff::bench
