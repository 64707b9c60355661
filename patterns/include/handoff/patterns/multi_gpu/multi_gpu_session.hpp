#pragma once
// The sessions of the multi_gpu variants. Each holds its configuration's shared setup and times
// its own runs (clock_kind::self), so that the figures it reports (figures.hpp) divide by the very
// seconds the row reports. gather_session runs the asynchronous variants: one run is everything
// between two events on GPU 0's stream, exactly the region measure_gpu_region would time.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/bounded_wait.hpp"
#include "handoff/patterns/multi_gpu/figures.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::multi_gpu {

class multi_gpu_session : public session<multi_gpu_case> {
 public:
  // For scope gather, runs the kernel once so that the results are on the devices to gather.
  // variant names the row in the error of a wait that gives up (bounded_wait.hpp).
  multi_gpu_session(std::shared_ptr<partitioned_setup> setup, run_scope scope, gather_kind gather,
                    std::string_view variant);

  // The figures over the timed runs since the last call (then starts a new count).
  std::vector<named_figure> figures() const override;

 protected:
  partitioned_setup& setup() const noexcept { return *setup_; }
  run_scope scope() const noexcept { return scope_; }
  // Throws std::invalid_argument unless work is a case of this session's setup and scope.
  void check_case(const multi_gpu_case& work) const;
  // Counts a run towards the figures. The first run after set-up, or after figures() were read,
  // is the driver's untimed warm-up (measure.hpp) and is not counted.
  void count_run(double seconds, const std::vector<double>& busy_seconds);
  // What a wait of this session's, at stage on device, is for.
  wait_site site(std::string_view stage, int device) const noexcept {
    return {.variant = variant_, .stage = stage, .device = device};
  }

 private:
  std::shared_ptr<partitioned_setup> setup_;
  std::string variant_;
  run_scope scope_;
  gather_kind gather_;
  mutable run_totals totals_;
  mutable bool next_run_is_warm_up_ = true;
};

class gather_session final : public multi_gpu_session {
 public:
  // gather may be null (kernel_only; scope gather is then invalid).
  gather_session(std::shared_ptr<partitioned_setup> setup, run_scope scope, gather_kind kind,
                 std::unique_ptr<device_gather> gather, std::string_view variant);

  run_result run(multi_gpu_case& work) override;
  void poison(multi_gpu_case& work) override;
  reference::verification_result verify(const multi_gpu_case& work) const override;
  cudaStream_t stream() const override;
  // The run's figures and the gather's own (device_gather::figures).
  std::vector<named_figure> figures() const override;
  // The gather's own figures alone (an MPI rank adds the run's figures itself).
  std::vector<named_figure> figures_of_gather() const;

 private:
  std::unique_ptr<device_gather> gather_;
  event start_;  // on GPU 0, like the origin stream
  event stop_;
};

}  // namespace handoff::patterns::multi_gpu
