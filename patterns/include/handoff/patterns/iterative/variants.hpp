#pragma once
// The iterative pattern as a table of variants (variant.hpp): a point is a number of unknowns and
// of Jacobi steps; its case holds the seeded system and the double-precision answer. Each
// variant's session, set-up and floor live in the variant's own file; the table lists them.
//   cpu_serial   one CPU thread, float (the CPU figure);
//   host_loop    the state on the host, shipped to the device and back for every step;
//   device_loop  the state on the device, the host checking convergence every 10 steps;
//   graph        the same steps and checks launched as one CUDA graph.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/patterns/iterative/jacobi_problem.hpp"
#include "handoff/patterns/variant.hpp"
#include "handoff/reference/jacobi.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::iterative {

struct jacobi_point {
  std::size_t unknowns = 1027;
  int iterations = reference::jacobi_default_iterations;
  bool operator==(const jacobi_point&) const = default;
};

// Seeded b and x0 of one size. The case and the sessions of that size share one copy (at 2^26
// unknowns they are 512 MiB), so a session can be set up from its point alone.
struct jacobi_inputs {
  std::vector<float> b, x0;
};
std::shared_ptr<const jacobi_inputs> seeded_jacobi_inputs(std::size_t unknowns);

// The system as a variant takes it, over inputs that outlive the variant.
jacobi_problem problem_of(const jacobi_inputs& inputs, const jacobi_point& at);

// Device-memory bytes of one step: it reads x and b and writes x_new, 12 bytes an unknown (the
// two neighbours of x[i] are the same cache lines, read once).
double jacobi_step_bytes(std::size_t unknowns);

// The work of one point. The outputs are the sessions' own (pinned or device buffers: a copy into
// the case would add to the timed run), so the case poisons nothing and each session verifies its
// own result with verify_iterate.
class jacobi_case {
 public:
  explicit jacobi_case(const jacobi_point& at);
  const jacobi_point& point() const noexcept { return at_; }
  void poison() {}
  // No session's result to check: fails, so that a session that forgets its verify() fails too.
  reference::verification_result verify() const;
  // x after the point's steps against the oracle, within reference::jacobi_relative_tolerance.
  reference::verification_result verify_iterate(std::span<const float> x) const;

 private:
  jacobi_point at_;
  std::shared_ptr<const jacobi_inputs> inputs_;
  std::vector<double> expected_;
};

std::unique_ptr<jacobi_case> make_jacobi_case(const jacobi_point& at);

using jacobi_session = session<jacobi_case>;
using jacobi_row = variant_row<jacobi_point, jacobi_case>;

variant_table<jacobi_point, jacobi_case> iterative_variants();

// One set-up and one floor per variant, each defined in that variant's file.
std::unique_ptr<jacobi_session> set_up_cpu_serial(const jacobi_point& at, compute_target target);
std::unique_ptr<jacobi_session> set_up_host_loop(const jacobi_point& at, compute_target target);
std::unique_ptr<jacobi_session> set_up_device_loop(const jacobi_point& at, compute_target target);
std::unique_ptr<jacobi_session> set_up_graph(const jacobi_point& at, compute_target target);
floor_terms host_loop_floor(const jacobi_point& at, compute_target target, const measured_run&);
floor_terms device_loop_floor(const jacobi_point& at, compute_target target, const measured_run&);
floor_terms graph_floor(const jacobi_point& at, compute_target target, const measured_run&);

}  // namespace handoff::patterns::iterative
