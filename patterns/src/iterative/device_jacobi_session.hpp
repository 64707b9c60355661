#pragma once
// The session of a variant whose Jacobi state stays on the device (device_loop, graph): timed with
// CUDA events on the variant's stream; enqueue() returns once the host has read the norms it
// needs, so the host's waits and comparisons lie between the events. A variant adds its own
// figures (the graph's node count) through extra_figures.

#include <memory>
#include <vector>

#include "handoff/patterns/iterative/variants.hpp"
#include "jacobi_session_support.hpp"

namespace handoff::patterns::iterative {

template <class Variant>
class device_jacobi_session final : public jacobi_session {
 public:
  using extra_figures_of = std::vector<named_figure> (*)(const Variant&);

  explicit device_jacobi_session(const jacobi_point& at, extra_figures_of extra = nullptr)
      : at_(at),
        inputs_(seeded_jacobi_inputs(at.unknowns)),
        variant_(problem_of(*inputs_, at)),
        l2_resident_(detail::l2_resident(at.unknowns)),
        extra_(extra) {}

  run_result run(jacobi_case&) override {
    return clock_.time([&] { return run_result{.seconds = 0, .stages = variant_.enqueue()}; });
  }
  void poison(jacobi_case&) override { variant_.poison_output(); }
  reference::verification_result verify(const jacobi_case& work) const override {
    return detail::verify_with_norm(work, variant_);
  }
  cudaStream_t stream() const override { return variant_.stream(); }
  std::vector<named_figure> figures() const override {
    auto figures = detail::convergence_figures(variant_);
    figures.push_back(clock_.seconds_per_iteration(at_.iterations));
    figures.push_back(l2_resident_);
    if (extra_)
      for (auto& figure : extra_(variant_))
        figures.push_back(std::move(figure));
    return figures;
  }

 private:
  jacobi_point at_;
  std::shared_ptr<const jacobi_inputs> inputs_;  // what variant_'s problem points into
  Variant variant_;
  named_figure l2_resident_;
  extra_figures_of extra_;
  detail::run_clock clock_;
};

}  // namespace handoff::patterns::iterative
