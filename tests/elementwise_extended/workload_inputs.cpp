#include "workload_inputs.hpp"

#include "handoff/reference/extended_elementwise.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::test_support {

std::string describe(const workload_case& test_case) {
  return std::string(patterns::elementwise::workload_name(test_case.workload)) +
         (test_case.workload == extended_workload::affine ? " n=" : " elements=") +
         std::to_string(test_case.size);
}

void PrintTo(const workload_case& test_case, std::ostream* out) {
  *out << describe(test_case);
}

workload_inputs::workload_inputs(workload_case test_case) : case_(test_case) {
  const std::size_t n = test_case.size;
  switch (test_case.workload) {
    case extended_workload::square:
      first_.resize(n);
      expected_.resize(n);
      reference::fill_seeded_nonzero(first_, 31);
      reference::square(first_, expected_);
      break;
    case extended_workload::neg_b_over_a:
      first_.resize(n);
      second_.resize(n);
      expected_.resize(n);
      reference::fill_seeded_nonzero(first_, 32);
      reference::fill_seeded_nonzero(second_, 33);
      reference::neg_b_over_a(first_, second_, expected_);
      break;
    case extended_workload::affine:
      first_.resize(n * n);
      second_.resize(n * n);
      bias_.resize(n);
      reference::fill_seeded_nonzero(first_, 34);
      reference::fill_seeded_nonzero(second_, 35);
      reference::fill_seeded_nonzero(bias_, 36);
      oracle_ = reference::affine_reference(n, first_, second_, bias_);
      break;
  }
}

extended_problem workload_inputs::problem() const {
  switch (case_.workload) {
    case extended_workload::square:
      return extended_problem::square(first_);
    case extended_workload::neg_b_over_a:
      return extended_problem::neg_b_over_a(first_, second_);
    case extended_workload::affine:
      break;
  }
  return extended_problem::affine(case_.size, first_, second_, bias_);
}

reference::verification_result workload_inputs::verify(std::span<const float> actual) const {
  if (oracle_) return reference::verify_affine(*oracle_, actual);
  return reference::verify_elementwise(expected_, actual);
}

}  // namespace handoff::test_support
