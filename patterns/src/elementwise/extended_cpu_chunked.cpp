#include <algorithm>

#include "extended_cpu_math.hpp"
#include "handoff/patterns/elementwise/extended_cpu_variants.hpp"
#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::elementwise {

elementwise_cpu_chunked::elementwise_cpu_chunked(extended_problem problem)
    : problem_(std::move(problem)), out_(problem_.output_count()) {}

void elementwise_cpu_chunked::poison_output() {
  reference::poison(out_);
}

void elementwise_cpu_chunked::run() {
  if (problem_.workload() != extended_workload::affine) {
    threads_used_ =
        reference::parallel_for(out_.size(), [this](std::size_t begin, std::size_t end) {
          cpu_math::elementwise_range(problem_, out_, begin, end);
        });
    return;
  }
  const std::size_t n = problem_.order();
  // A thread gets at least as many multiply-adds as the elementwise grain, so a small matrix is
  // not spread over threads that cost more to start than their rows take.
  const std::size_t rows_per_thread = std::max<std::size_t>(1, reference::parallel_grain / (n * n));
  threads_used_ = reference::parallel_for(
      n,
      [this, n](std::size_t row_begin, std::size_t row_end) {
        cpu_math::affine_rows(n, problem_.input(0).data(), problem_.input(1).data(),
                              problem_.input(2).data(), out_.data(), row_begin, row_end);
      },
      reference::default_thread_count(), rows_per_thread);
}

}  // namespace handoff::patterns::elementwise

namespace handoff::patterns::elementwise {
namespace {

// Timed by the wall clock; the whole run is arithmetic, so it is all kernel, read by the session's
// own two clock reads inside the run (as the benchmark's own timing did before the table).
class cpu_chunked_session final : public extended_session {
 public:
  explicit cpu_chunked_session(const extended_point& at)
      : inputs_(seeded_extended_inputs(at)), variant_(inputs_->problem()) {}

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
    return {{"worker_threads", static_cast<double>(variant_.threads_used())}};
  }

 private:
  std::shared_ptr<const extended_inputs> inputs_;  // what variant_ reads
  elementwise_cpu_chunked variant_;
};

}  // namespace

std::unique_ptr<extended_session> set_up_extended_cpu_chunked(const extended_point& at,
                                                              compute_target) {
  return std::make_unique<cpu_chunked_session>(at);
}

}  // namespace handoff::patterns::elementwise
