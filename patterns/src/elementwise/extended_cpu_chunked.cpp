#include <algorithm>

#include "extended_cpu_math.hpp"
#include "handoff/patterns/elementwise/extended_cpu_variants.hpp"
#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"
#include "handoff/wall_clock.hpp"
#include "in_process_cpu_session.hpp"

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

std::vector<named_figure> threads_used(const elementwise_cpu_chunked& variant) {
  return {{"worker_threads", static_cast<double>(variant.threads_used())}};
}

}  // namespace

std::unique_ptr<extended_session> set_up_extended_cpu_chunked(const extended_point& at,
                                                              compute_target) {
  return std::make_unique<in_process_cpu_session<elementwise_cpu_chunked>>(at, threads_used);
}

}  // namespace handoff::patterns::elementwise
