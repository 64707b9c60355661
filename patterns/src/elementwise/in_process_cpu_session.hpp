#pragma once
// The session of an extended CPU variant that runs in this process (cpu_chunked, cpu_blas): timed
// by the wall clock, and the whole run is arithmetic, so it is all kernel, read by two clock reads
// inside the run. A variant adds its own figures (the threads it used) through figures_of.

#include <memory>
#include <vector>

#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::elementwise {

template <class Variant>
class in_process_cpu_session final : public extended_session {
 public:
  using figures_of_variant = std::vector<named_figure> (*)(const Variant&);

  explicit in_process_cpu_session(const extended_point& at, figures_of_variant figures_of = nullptr)
      : inputs_(seeded_extended_inputs(at)),
        variant_(inputs_->problem()),
        figures_of_(figures_of) {}

  run_result run(extended_case&) override {
    const auto start = wall_clock::now();
    variant_.run();
    return {.stages = {.kernel = seconds_since(start)}};
  }
  void poison(extended_case&) override { variant_.poison_output(); }
  reference::verification_result verify(const extended_case& work) const override {
    return work.verify_result(variant_.result());
  }
  std::vector<named_figure> figures() const override {
    return figures_of_ ? figures_of_(variant_) : std::vector<named_figure>{};
  }

 private:
  std::shared_ptr<const extended_inputs> inputs_;  // what variant_ reads
  Variant variant_;
  figures_of_variant figures_of_;
};

}  // namespace handoff::patterns::elementwise
