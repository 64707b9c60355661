#pragma once
// iterative/<variant>/unknowns:<n>/iterations:100: seed 001's example 3, a coordinator running a
// GPU solver whose every iteration feeds the next, here 100 Jacobi steps on the tridiagonal system
// of reference/jacobi.hpp; the CPU variants in the family iterative/cpu, the device ones in
// iterative/gpu. Counters beyond the harness's, the sessions' figures: seconds_per_iteration (one
// Jacobi step, so graph and device_loop compare directly at one size), update_norm and
// converged_at_iteration (the last check's norm and the host's verdict; 0: not converged in 100
// steps, which at d = 2.125 is expected), checks, graph_nodes, l2_resident.

#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/patterns/pattern_benchmarks.hpp"

namespace handoff::patterns::iterative {

const pattern_benchmarks<jacobi_point, jacobi_case>& iterative_benchmarks();

}  // namespace handoff::patterns::iterative
