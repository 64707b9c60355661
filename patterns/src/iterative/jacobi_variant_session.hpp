#pragma once
// The sessions of the GPU Jacobi variants (host_loop, device_loop, graph): each holds its point,
// the seeded inputs its variant's problem points into, the variant, and the figures every one of
// them reports. They differ only in how a run is started, what is verified and which figures are
// added, so the variants' files name those and nothing else.

#include <cuda_runtime_api.h>

#include <memory>
#include <utility>
#include <vector>

#include "handoff/patterns/iterative/variants.hpp"
#include "jacobi_session_support.hpp"

namespace handoff::patterns::iterative::detail {

// A variant timed whole by the session's run_clock (the figure seconds_per_iteration). run_member:
// the variant's member that runs one solve and returns its stages; a template argument rather
// than a virtual call, so that nothing is added inside the timed region.
template <class Variant, stage_times (Variant::*run_member)()>
class jacobi_variant_session : public jacobi_session {
 public:
  explicit jacobi_variant_session(const jacobi_point& at)
      : at_(at),
        inputs_(seeded_jacobi_inputs(at.unknowns)),
        variant_(problem_of(*inputs_, at)),
        l2_resident_(l2_resident(at.unknowns)) {}

  run_result run(jacobi_case&) override {
    return clock_.time(
        [&] { return run_result{.seconds = 0, .stages = (variant_.*run_member)()}; });
  }
  void poison(jacobi_case&) override { variant_.poison_output(); }
  reference::verification_result verify(const jacobi_case& work) const override {
    return work.verify_iterate(variant_.result());
  }
  std::vector<named_figure> figures() const override {
    return {clock_.seconds_per_iteration(at_.iterations), l2_resident_};
  }

 protected:
  const Variant& variant() const noexcept { return variant_; }

 private:
  jacobi_point at_;
  std::shared_ptr<const jacobi_inputs> inputs_;  // what variant_'s problem points into
  Variant variant_;
  named_figure l2_resident_;  // asked of the device once, at set-up, not in figures()
  run_clock clock_;
};

// A variant whose state stays on the device (jacobi_device_loop, jacobi_graph): timed with CUDA
// events on its stream (its enqueue() returns once the host has read the last norm, so the host's
// waits and comparisons lie between the events), its last norm checked against the host's, and
// its convergence reported ahead of the run's figures.
template <class Variant>
class device_jacobi_session : public jacobi_variant_session<Variant, &Variant::enqueue> {
  using base = jacobi_variant_session<Variant, &Variant::enqueue>;

 public:
  using base::base;

  reference::verification_result verify(const jacobi_case& work) const override {
    return verify_with_norm(work, this->variant());
  }
  cudaStream_t stream() const override { return this->variant().stream(); }
  std::vector<named_figure> figures() const override {
    auto figures = convergence_figures(this->variant());
    for (auto& figure : base::figures())
      figures.push_back(std::move(figure));
    return figures;
  }
};

}  // namespace handoff::patterns::iterative::detail
