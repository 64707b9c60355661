#include "handoff/patterns/elementwise/extended_cpu_blas.hpp"
#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/wall_clock.hpp"
#include "in_process_cpu_session.hpp"
#include "openblas_library.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"

namespace handoff::patterns::elementwise {

elementwise_cpu_blas::elementwise_cpu_blas(extended_problem problem)
    : problem_(std::move(problem)), out_(problem_.output_count()) {
  // Loaded here, in the setup, so that no timed run pays for the load or its threads' start.
  openblas();
  if (problem_.workload() != extended_workload::affine) {
    throw std::invalid_argument("cpu_blas runs only the affine workload, not " +
                                std::string(workload_name(problem_.workload())));
  }
}

elementwise_cpu_blas::~elementwise_cpu_blas() {
  // Far longer than the spin: a limit only against a thread that never settles.
  openblas().wait_until_asleep(std::chrono::seconds(2));
}

void elementwise_cpu_blas::poison_output() {
  reference::poison(out_);
}

void elementwise_cpu_blas::run() {
  const auto n = static_cast<blasint>(problem_.order());
  openblas().sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f,
                   problem_.input(0).data(), n, problem_.input(1).data(), n, 0.0f, out_.data(), n);
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

std::unique_ptr<extended_session> set_up_extended_cpu_blas(const extended_point& at,
                                                           compute_target) {
  return std::make_unique<in_process_cpu_session<elementwise_cpu_blas>>(at);
}

}  // namespace handoff::patterns::elementwise
