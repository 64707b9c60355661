#pragma once
// Seeded inputs and the check of a result, per workload and size, for the extended elementwise
// tests.

#include <cstddef>
#include <optional>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/reference/verify_affine.hpp"

namespace handoff::test_support {

using patterns::elementwise::extended_problem;
using patterns::elementwise::extended_workload;

struct workload_case {
  extended_workload workload;
  std::size_t size;  // elements, or the affine order n
};

std::string describe(const workload_case& test_case);
// How GoogleTest prints a parameter, so test names read "square elements=1027".
void PrintTo(const workload_case& test_case, std::ostream* out);

class workload_inputs {
 public:
  explicit workload_inputs(workload_case test_case);
  extended_problem problem() const;
  reference::verification_result verify(std::span<const float> actual) const;

 private:
  workload_case case_;
  std::vector<float> first_, second_, bias_, expected_;
  std::optional<reference::affine_oracle> oracle_;
};

}  // namespace handoff::test_support
