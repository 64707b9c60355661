#pragma once
// pool_prep/<variant>/chunks:<c>/elements:<per chunk>/workers:<w>/start:<cold|warm>: seed 000
// example 1 (and seed 001 example 1), a pool preparing a vector add's inputs chunk by chunk for
// the GPU; its CPU references in the family pool_prep/cpu, the rest in pool_prep/gpu.

#include "handoff/patterns/pattern_benchmarks.hpp"
#include "handoff/patterns/pool_prep/variants.hpp"

namespace handoff::patterns::pool_prep {

const pattern_benchmarks<point, batch_case>& pool_prep_benchmarks();

}  // namespace handoff::patterns::pool_prep
