#pragma once
// inputs/seeded_nonzero: the seeded input generator alone, a family of rows that no pattern's
// table declares; the registrar places it among the patterns' families.

#include "../harness/family_registry.hpp"

namespace handoff::bench::seeded_inputs {

benchmark_family seeded_inputs_family();

}  // namespace handoff::bench::seeded_inputs
