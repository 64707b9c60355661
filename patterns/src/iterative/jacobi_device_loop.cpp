#include "handoff/patterns/iterative/jacobi_device_variants.hpp"
#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/wall_clock.hpp"
#include "jacobi_variant_session.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::iterative {

jacobi_device_loop::jacobi_device_loop(jacobi_problem problem, int check_every)
    : state_(problem, check_every) {}

void jacobi_device_loop::poison_output() {
  state_.poison();
  log_ = {};
}

stage_times jacobi_device_loop::enqueue() {
  log_ = {};
  stage_times stages;
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
    const auto compared = wall_clock::now();
    log_.record(checked_at, state_.host_norm_squared(check), state_.unknowns());
    stages.post += seconds_since(compared);
    stages.kernel += elapsed_milliseconds(segment_start_, after_reduction_) * 1e-3;
    stages.d2h += elapsed_milliseconds(after_reduction_, after_download_) * 1e-3;
  }
  return stages;
}

}  // namespace handoff::patterns::iterative

namespace handoff::patterns::iterative {

std::unique_ptr<jacobi_session> set_up_device_loop(const jacobi_point& at, compute_target) {
  return std::make_unique<detail::device_jacobi_session<jacobi_device_loop>>(at);
}

// The floor is the Jacobi solve's own work; the convergence checks (their reductions, copies and
// waits) are this variant's overhead above it. The host must issue a launch a step, but they
// overlap the steps already running (100 launches plus the bytes exceeded the measured run at
// 2^26), so the floor is the slower of the two, not their sum.
floor_terms device_loop_floor(const jacobi_point& at, compute_target, const measured_run&) {
  floor_terms floor;
  detail::add_step_bytes(floor, at);
  floor.add_events(detail::launch_async, at.iterations);
  floor.overlapped = true;
  return floor;
}

constinit const jacobi_row device_loop_variant{
    .name = "device_loop",
    .description = "the state stays on the device; a CUB norm every 10 iterations",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .setup = set_up_device_loop,
    .floor = device_loop_floor};

}  // namespace handoff::patterns::iterative
