#include "mpi_rows.hpp"

#include <algorithm>
#include <cstddef>

#include "../harness/registration.hpp"
#include "handoff/patterns/multi_gpu/headline_size.hpp"
#include "handoff/patterns/multi_gpu/sweep.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"

namespace handoff::bench::mpi {
namespace {

using namespace patterns::multi_gpu;

std::vector<run_scope> scopes_of(const across_ranks& form, const workload& of) {
  if (of.rows == workload_rows::placement_check) return {run_scope::from_host};
  std::vector<run_scope> scopes;
  if (form.gather != gather_kind::none) scopes.push_back(run_scope::gather);
  scopes.push_back(run_scope::resident);
  scopes.push_back(run_scope::from_host);
  return scopes;
}

}  // namespace

mpi_rows rows_across_ranks(const bench_config& config, int ranks,
                           const std::function<std::string(const multi_gpu_row&)>& unavailable) {
  const std::size_t elements =
      config.smoke ? smoke_elements
                   : std::min<std::size_t>(std::size_t{1} << 28, config.max_elements);
  mpi_rows made;
  std::vector<const multi_gpu_row*> running;
  for (const auto& row : multi_gpu_variants()) {
    if (!row.specifics.runs) continue;
    if (auto reason = unavailable(row); !reason.empty()) {
      made.left_out.emplace_back(row.name, std::move(reason));
      continue;
    }
    running.push_back(&row);
  }
  for (const auto* each : registered_workloads()) {
    for (const auto* row : running) {
      for (const auto scope : scopes_of(row->specifics, *each)) {
        const partitioned_config at{each->name, ranks, partitioner::even, elements, 0};
        made.rows.push_back({benchmark_name("multi_gpu_mpi", std::string(row->name),
                                            multi_gpu_axes({.config = at, .scope = scope})),
                             at, row->specifics, scope});
      }
    }
  }
  return made;
}

}  // namespace handoff::bench::mpi
