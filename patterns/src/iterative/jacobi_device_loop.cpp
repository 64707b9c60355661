#include <chrono>

#include "handoff/patterns/iterative/jacobi_device_variants.hpp"

namespace handoff::patterns::iterative {

jacobi_device_loop::jacobi_device_loop(jacobi_problem problem, int check_every)
    : state_(problem, check_every) {}

void jacobi_device_loop::poison_output() {
  state_.poison();
  log_ = {};
}

void jacobi_device_loop::enqueue() {
  using clock = std::chrono::steady_clock;
  log_ = {};
  stages_ = {};
  const cudaStream_t stream = state_.stream();
  int k = 1;
  for (std::size_t check = 0; check < state_.checks().size(); ++check) {
    const int checked_at = state_.checks()[check];
    segment_start_.record(stream);
    for (; k <= checked_at; ++k)
      state_.enqueue_step(k);
    state_.enqueue_check(checked_at, check);
    after_reduction_.record(stream);
    state_.enqueue_norms_download(check, 1);
    after_download_.record(stream);
    after_download_.synchronize();  // the host needs the norm to decide
    const auto compared = clock::now();
    log_.record(checked_at, state_.host_norm_squared(check), state_.unknowns());
    stages_.post += std::chrono::duration<double>(clock::now() - compared).count();
    stages_.kernel += elapsed_milliseconds(segment_start_, after_reduction_) * 1e-3;
    stages_.d2h += elapsed_milliseconds(after_reduction_, after_download_) * 1e-3;
  }
}

}  // namespace handoff::patterns::iterative
