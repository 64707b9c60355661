#pragma once
// The scopes a multi_gpu row has: those it is measured at with the article's kernel at the
// headline size, as its row's measured_at says (a kernel_only row has no gather to time alone).

#include <vector>

#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::multi_gpu_tests {

inline std::vector<patterns::multi_gpu::run_scope> scopes_of(
    const patterns::multi_gpu::multi_gpu_row& row) {
  using namespace patterns::multi_gpu;
  std::vector<run_scope> scopes;
  for (const auto scope : {run_scope::gather, run_scope::resident, run_scope::from_host}) {
    const multi_gpu_point at{{"scale_by_two", 1, partitioner::even, 4099, 256}, scope};
    if (patterns::is_measured_at(row, at)) scopes.push_back(scope);
  }
  return scopes;
}

}  // namespace handoff::multi_gpu_tests
