#include <cstdint>

#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/verify_relative.hpp"

namespace handoff::patterns::iterative {
namespace {

constexpr std::uint64_t seed_b = 0x1AC0B1;
constexpr std::uint64_t seed_x0 = 0x1AC0B2;

}  // namespace

std::shared_ptr<const jacobi_inputs> seeded_jacobi_inputs(std::size_t unknowns) {
  // Only the latest size is remembered, and only while a case or a session still holds it.
  static std::weak_ptr<const jacobi_inputs> latest;
  if (auto held = latest.lock(); held && held->b.size() == unknowns) return held;
  auto inputs = std::make_shared<jacobi_inputs>();
  inputs->b.resize(unknowns);
  inputs->x0.resize(unknowns);
  reference::fill_seeded_nonzero(inputs->b, seed_b);
  reference::fill_seeded_nonzero(inputs->x0, seed_x0);
  latest = inputs;
  return inputs;
}

jacobi_problem problem_of(const jacobi_inputs& inputs, const jacobi_point& at) {
  return {.b = inputs.b, .x0 = inputs.x0, .iterations = at.iterations};
}

double jacobi_step_bytes(std::size_t unknowns) {
  return 12.0 * static_cast<double>(unknowns);
}

jacobi_case::jacobi_case(const jacobi_point& at)
    : at_(at), inputs_(seeded_jacobi_inputs(at.unknowns)) {
  const auto problem = checked(problem_of(*inputs_, at));
  expected_ = reference::jacobi_1d_tiled(problem.b, problem.x0, problem.iterations);
}

reference::verification_result jacobi_case::verify() const {
  return {.checked = 0, .mismatches = 1, .first = std::nullopt};
}

reference::verification_result jacobi_case::verify_iterate(std::span<const float> x) const {
  return reference::verify_within_relative(expected_, x, reference::jacobi_relative_tolerance);
}

std::unique_ptr<jacobi_case> make_jacobi_case(const jacobi_point& at) {
  return std::make_unique<jacobi_case>(at);
}

}  // namespace handoff::patterns::iterative
