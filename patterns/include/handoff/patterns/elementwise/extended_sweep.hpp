#pragma once
// elementwise/<variant>/workload:<square|neg_b_over_a>/elements:<count> and
// elementwise/<variant>/workload:affine/n:<order> (with /start:<warm|cold> for the rows that have
// a cold start): seed 002's workloads, the CPU variants in the family elementwise/extended/cpu and
// the device ones in elementwise/extended/gpu. Every variant runs at the same sizes per workload
// (cpu_map only up to its cap, cpu_blas only affine), so a report can find, per workload, the
// smallest size at which a GPU variant beats the best CPU variant. The counters it needs:
// elements (output values), items (= elements), bytes (inputs + output), and for affine n and
// flops (2 n^3 + n^2).

#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/patterns/pattern_benchmarks.hpp"

namespace handoff::patterns::elementwise {

const pattern_benchmarks<extended_point, extended_case>& extended_benchmarks();

}  // namespace handoff::patterns::elementwise
