#include "handoff/patterns/elementwise/extended_cpu_blas.hpp"
#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/wall_clock.hpp"

#include <cblas.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"

namespace handoff::patterns::elementwise {

elementwise_cpu_blas::elementwise_cpu_blas(extended_problem problem)
    : problem_(std::move(problem)), out_(problem_.output_count()) {
  if (problem_.workload() != extended_workload::affine) {
    throw std::invalid_argument("cpu_blas runs only the affine workload, not " +
                                std::string(workload_name(problem_.workload())));
  }
}

void elementwise_cpu_blas::poison_output() {
  reference::poison(out_);
}

void elementwise_cpu_blas::run() {
  const auto n = static_cast<blasint>(problem_.order());
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, problem_.input(0).data(), n,
              problem_.input(1).data(), n, 0.0f, out_.data(), n);
  // The bias pass reads and writes all of Y: on threads, so at n = 2048 it stays a small part of
  // the GEMM's time.
  const auto bias = problem_.input(2);
  const std::size_t order = problem_.order();
  reference::parallel_for(
      order,
      [&](std::size_t row_begin, std::size_t row_end) {
        for (std::size_t i = row_begin; i < row_end; ++i) {
          float* row = out_.data() + i * order;
          for (std::size_t j = 0; j < order; ++j)
            row[j] += bias[i];
        }
      },
      reference::default_thread_count(),
      std::max<std::size_t>(1, reference::parallel_grain / order));
}

}  // namespace handoff::patterns::elementwise

namespace handoff::patterns::elementwise {
namespace {

// Timed by the wall clock; the GEMM and the bias pass are all kernel (see cpu_chunked's session).
class cpu_blas_session final : public extended_session {
 public:
  explicit cpu_blas_session(const extended_point& at)
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

 private:
  std::shared_ptr<const extended_inputs> inputs_;  // what variant_ reads
  elementwise_cpu_blas variant_;
};

}  // namespace

std::unique_ptr<extended_session> set_up_extended_cpu_blas(const extended_point& at,
                                                           compute_target) {
  return std::make_unique<cpu_blas_session>(at);
}

}  // namespace handoff::patterns::elementwise
