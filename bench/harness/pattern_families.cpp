// handoff_bench's benchmark families after the ceilings, in the order they run: every pattern's,
// as its declaration beside its table says (sweep_registrar.hpp turns each into families), and the
// seeded inputs' family, the one whose rows no table declares. A new pattern is one line here.

#include <vector>

#include "../inputs/seeded_inputs_bench.hpp"
#include "family_registry.hpp"
#include "handoff/patterns/elementwise/extended_sweep.hpp"
#include "handoff/patterns/elementwise/vector_add_sweep.hpp"
#include "handoff/patterns/independent_tasks/sweep.hpp"
#include "handoff/patterns/iterative/sweep.hpp"
#include "handoff/patterns/multi_gpu/sweep.hpp"
#include "handoff/patterns/pool_prep/sweep.hpp"
#include "handoff/patterns/postproc_split/sweep.hpp"
#include "handoff/patterns/queued_worker/sweep.hpp"
#include "handoff/patterns/tensor_transfer/sweep.hpp"
#include "sweep_registrar.hpp"

namespace handoff::bench {
namespace {

// Made once main has started: a table's rows may be initialised before main in any order.
std::vector<benchmark_family> pattern_families() {
  std::vector<benchmark_family> all;
  const auto add = [&all](std::vector<benchmark_family> families) {
    for (auto& family : families)
      all.push_back(std::move(family));
  };
  add(families_of(patterns::elementwise::vector_add_benchmarks()));
  add({seeded_inputs::seeded_inputs_family()});
  add(families_of(patterns::tensor_transfer_benchmarks()));
  add(families_of(patterns::pool_prep::pool_prep_benchmarks()));
  add(families_of(patterns::queued_worker::queued_worker_benchmarks()));
  add(families_of(patterns::postproc_split::postproc_split_benchmarks()));
  add(families_of(patterns::independent_tasks::independent_tasks_benchmarks()));
  add(families_of(patterns::iterative::iterative_benchmarks()));
  add(families_of(patterns::elementwise::extended_benchmarks()));
  add(families_of(patterns::multi_gpu::multi_gpu_benchmarks()));
  return all;
}

}  // namespace

HANDOFF_BENCHMARK_FAMILIES(pattern_families);

}  // namespace handoff::bench
