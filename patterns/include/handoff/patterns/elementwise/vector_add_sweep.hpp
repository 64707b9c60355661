#pragma once
// elementwise/<variant>/workload:vector_add/elements:<n>: seed 000's vector add, from one CPU
// thread up to data resident on the GPU; the CPU variants in the family elementwise/vector_add/cpu,
// the device ones in elementwise/vector_add/gpu.

#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "handoff/patterns/pattern_benchmarks.hpp"

namespace handoff::patterns::elementwise {

const pattern_benchmarks<vector_add_point, vector_add_case>& vector_add_benchmarks();

}  // namespace handoff::patterns::elementwise
