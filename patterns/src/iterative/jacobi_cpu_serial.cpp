#include <stdexcept>

#include "handoff/patterns/iterative/jacobi_host_variants.hpp"
#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "jacobi_session_support.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::iterative {

void jacobi_step_on_host(std::span<const float> b, std::span<const float> x, std::span<float> x_new,
                         float diagonal) {
  const std::size_t n = b.size();
  if (x.size() != n || x_new.size() != n) {
    throw std::invalid_argument("jacobi_step_on_host: b, x and x_new differ in length");
  }
  if (n == 0) return;
  if (n == 1) {
    x_new[0] = ((b[0] + 0.0f) + 0.0f) / diagonal;
    return;
  }
  x_new[0] = ((b[0] + 0.0f) + x[1]) / diagonal;
  for (std::size_t i = 1; i + 1 < n; ++i)
    x_new[i] = ((b[i] + x[i - 1]) + x[i + 1]) / diagonal;
  x_new[n - 1] = ((b[n - 1] + x[n - 2]) + 0.0f) / diagonal;
}

jacobi_cpu_serial::jacobi_cpu_serial(jacobi_problem problem)
    : problem_(checked(problem)),
      state_{std::vector<float>(problem.b.size()), std::vector<float>(problem.b.size())} {}

void jacobi_cpu_serial::poison_output() {
  reference::poison(state_[0]);
  reference::poison(state_[1]);
}

void jacobi_cpu_serial::run() {
  std::span<const float> x = problem_.x0;
  for (int k = 1; k <= problem_.iterations; ++k) {
    auto& x_new = state_[(k - 1) % 2];
    jacobi_step_on_host(problem_.b, x, x_new, problem_.diagonal);
    x = x_new;
  }
}

std::span<const float> jacobi_cpu_serial::result() const {
  return state_[(problem_.iterations - 1) % 2];
}

}  // namespace handoff::patterns::iterative

namespace handoff::patterns::iterative {
namespace {

// No ceiling of the suite bounds a one-thread stencil whose data may sit in cache, so, like
// elementwise's CPU variants, this row has no floor.
class cpu_serial_session final : public jacobi_session {
 public:
  explicit cpu_serial_session(const jacobi_point& at)
      : at_(at), inputs_(seeded_jacobi_inputs(at.unknowns)), variant_(problem_of(*inputs_, at)) {}

  run_result run(jacobi_case&) override {
    return clock_.time([&] {
      variant_.run();
      return run_result{};
    });
  }
  void poison(jacobi_case&) override { variant_.poison_output(); }
  reference::verification_result verify(const jacobi_case& work) const override {
    return work.verify_iterate(variant_.result());
  }
  std::vector<named_figure> figures() const override {
    return {clock_.seconds_per_iteration(at_.iterations)};
  }

 private:
  jacobi_point at_;
  std::shared_ptr<const jacobi_inputs> inputs_;  // what variant_'s problem points into
  jacobi_cpu_serial variant_;
  detail::run_clock clock_;
};

}  // namespace

std::unique_ptr<jacobi_session> set_up_cpu_serial(const jacobi_point& at, compute_target) {
  return std::make_unique<cpu_serial_session>(at);
}

constinit const jacobi_row cpu_serial_variant{
    .name = "cpu_serial",
    .description = "Jacobi on one CPU thread",
    .targets = on_cpu,
    .clock = clock_kind::wall,
    .reports_stages = false,  // one loop on one core
    .setup = set_up_cpu_serial,
    .threads = host_threads::calling_only,
    // 2^22 unknowns x 100 steps is a quarter to half a second a run on one core.
    .measured_at = up_to<std::size_t{1} << 22>};

}  // namespace handoff::patterns::iterative
