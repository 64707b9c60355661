#pragma once
// What the iterative pattern's sessions share: the seconds of their runs (the figure
// seconds_per_iteration), the L2 question of the floors, and the checks of the device variants'
// convergence norms against the host's.

#include <cstddef>
#include <vector>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/reference/jacobi.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::iterative::detail {

using ceiling::d2h_pinned;
using ceiling::device_copy;
using ceiling::h2d_pinned;
using ceiling::launch_async;
using ceiling::launch_sync;

// The wall seconds of a session's runs, for the figure seconds_per_iteration: one Jacobi step's
// seconds, comparable across variants at one size. The driver reads a session's figures once per
// batch (a warm-up run, then the timed runs), so the figure is the mean of the runs since it was
// last read, less the first of them: the batch's timed runs. Two clock reads a run.
class run_clock {
 public:
  template <class Body>
  auto time(Body&& body) {
    const auto start = wall_clock::now();
    auto result = body();
    add(seconds_since(start));
    return result;
  }
  // Starts the next batch's window.
  named_figure seconds_per_iteration(int iterations) const;

 private:
  void add(double seconds);
  // Mutable: reading the figure ends a batch, and figures() is const.
  mutable int runs_ = 0;
  mutable double first_seconds_ = 0;
  mutable double later_seconds_ = 0;
};

// Whether one step's b, x and x_new fit in the current device's L2 cache together: then they stay
// there from one step to the next, run faster than hbm_device_copy, and no ceiling of the suite
// prices them, so the floors leave them out (the figure l2_resident says which case a row is).
bool steps_fit_in_l2(std::size_t unknowns);
named_figure l2_resident(std::size_t unknowns);

// The steps' device-memory bytes at hbm_device_copy, when they do not stay in L2.
void add_step_bytes(floor_terms& floor, const jacobi_point& at);

// The iterate against the oracle, and the device's last norm against the host's norm of the same
// two iterates: a disagreeing norm is one more mismatch. Variant: jacobi_device_loop or
// jacobi_graph.
template <class Variant>
reference::verification_result verify_with_norm(const jacobi_case& work, const Variant& variant) {
  const auto x = variant.result();
  auto verdict = work.verify_iterate(x);
  const auto& log = variant.convergence();
  const double host = reference::update_norm_squared(x, variant.previous_iterate());
  const auto norm = reference::verify_reduction(host, log.last_norm() * log.last_norm());
  verdict.mismatches += norm.mismatches;
  if (!verdict.first) verdict.first = norm.first;
  return verdict;
}

// The last run's convergence: its last norm, the host's verdict (0: not converged) and the checks.
template <class Variant>
std::vector<named_figure> convergence_figures(const Variant& variant) {
  const auto& log = variant.convergence();
  return {{"update_norm", log.last_norm()},
          {"converged_at_iteration", static_cast<double>(log.converged_at)},
          {"checks", static_cast<double>(log.checked_at.size())}};
}

}  // namespace handoff::patterns::iterative::detail
