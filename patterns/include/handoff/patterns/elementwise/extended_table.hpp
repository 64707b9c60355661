#pragma once
// Seed 002's workloads (x^2, -b/a, Y = W X + b; extended_problem.hpp) as a table of variants
// (variant.hpp): a point is a workload and its size (elements, or the affine order n); its case
// holds the seeded inputs, the output every session writes and the reference. Each variant's
// session, set-up and floor live beside the variant (extended_cpu_map.cpp,
// extended_cpu_chunked.cpp, extended_cpu_blas.cpp, extended_gpu_variants.cpp); the table lists
// them.

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/patterns/variant.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/reference/verify_affine.hpp"

namespace handoff::patterns::elementwise {

struct extended_point {
  extended_workload workload = extended_workload::square;
  std::size_t size = 1027;  // elements, or the affine order n
  bool operator==(const extended_point&) const = default;
};

// Seeded inputs of one point, shared by its case and its sessions (one copy: at 2^24 elements a
// set is 128 MiB), so a session can be set up from its point alone.
struct extended_inputs {
  extended_point at;
  std::vector<float> first, second, bias;  // x; a, b; W, X, b
  extended_problem problem() const;
};
std::shared_ptr<const extended_inputs> seeded_extended_inputs(const extended_point& at);

// The work of one point: the inputs, the output the sessions write (so a cold session's set-up
// allocates nothing the old benchmark did not), and the reference: exact to 1 ulp for the
// elementwise workloads, the affine tolerance for affine.
class extended_case {
 public:
  explicit extended_case(const extended_point& at);
  const extended_problem& problem() const noexcept { return problem_; }
  std::span<float> out() noexcept { return out_; }
  std::span<const float> out() const noexcept { return out_; }
  void poison();
  reference::verification_result verify() const { return verify_result(out_); }
  reference::verification_result verify_result(std::span<const float> actual) const;

 private:
  std::shared_ptr<const extended_inputs> inputs_;
  extended_problem problem_;  // views inputs_
  std::vector<float> out_;
  std::vector<float> expected_;                     // square and neg_b_over_a
  std::optional<reference::affine_oracle> oracle_;  // affine
};

std::unique_ptr<extended_case> make_extended_case(const extended_point& at);

// What one run moves and computes: inputs plus output bytes, and the output values.
double extended_bytes(const extended_point& at);
double extended_elements(const extended_point& at);

using extended_session = session<extended_case>;
variant_table<extended_point, extended_case> extended_variants();

// cpu_map dispatches every item as two messages: it is capped at 2^14 elements and n = 256.
bool within_map_cap(const extended_point& at);

std::unique_ptr<extended_session> set_up_extended_cpu_map(const extended_point&, compute_target);
std::unique_ptr<extended_session> set_up_extended_cpu_chunked(const extended_point&,
                                                              compute_target);
std::unique_ptr<extended_session> set_up_extended_cpu_blas(const extended_point&, compute_target);
std::unique_ptr<extended_session> set_up_extended_gpu_transfers(const extended_point&,
                                                                compute_target);
std::unique_ptr<extended_session> set_up_extended_gpu_resident(const extended_point&,
                                                               compute_target);
floor_terms extended_cpu_map_floor(const extended_point&, compute_target, const measured_run&);
floor_terms extended_transfers_floor(const extended_point&, compute_target, const measured_run&);
floor_terms extended_resident_floor(const extended_point&, compute_target, const measured_run&);

}  // namespace handoff::patterns::elementwise
