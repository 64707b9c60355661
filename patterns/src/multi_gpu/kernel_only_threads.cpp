// kernel_only_threads: kernel_only, launched from one host thread per device (launch_threads.hpp
// says why) instead of one thread that launches on each device in turn. The run is timed the same
// way, between two events on GPU 0's stream, so the two rows differ by the launch path alone and
// compare with one rank per GPU under mpirun.

#include <stdexcept>

#include "handoff/patterns/multi_gpu/launch_threads.hpp"
#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "handoff/scoped_device.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

std::vector<int> ordinals_of(const partitioned_devices& devices) {
  std::vector<int> ordinals;
  for (const auto& slot : devices.slots())
    ordinals.push_back(slot.ordinal);
  return ordinals;
}

class threaded_kernel_session final : public multi_gpu_session {
 public:
  threaded_kernel_session(std::shared_ptr<partitioned_setup> setup, run_scope scope)
      : multi_gpu_session(setup, scope, gather_kind::none),
        threads_(ordinals_of(*setup->devices)),
        origin_device_(setup->devices->slots().front().ordinal) {
    if (scope == run_scope::gather) {
      throw std::invalid_argument("kernel_only_threads has no gather to time in scope 'gather'");
    }
  }

  run_result run(multi_gpu_case& work) override {
    check_case(work);
    auto& devices = *setup().devices;
    const bool upload = scope() == run_scope::from_host;
    start_.record(devices.origin());
    devices.record_fork_point();
    threads_.run_on_each([&](std::size_t index) {
      auto& slot = devices.slots()[index];
      devices.start(slot);
      if (upload) devices.enqueue_uploads(slot);
      devices.enqueue_kernel(slot, setup().kernel);
      devices.finish(slot);
    });
    devices.wait_for_slots();
    stop_.record(devices.origin());
    const double seconds = elapsed_milliseconds(start_, stop_) * 1e-3;
    count_run(seconds, devices.busy_seconds());
    return {.seconds = seconds, .stages = {}};
  }

  void poison(multi_gpu_case& work) override { work.poison(); }

  reference::verification_result verify(const multi_gpu_case& work) const override {
    return work.verify();
  }

  cudaStream_t stream() const override { return setup().devices->origin(); }

 private:
  launch_threads threads_;
  int origin_device_;
  // Made on GPU 0, like the origin stream they are recorded on.
  event start_ = event_on_origin();
  event stop_ = event_on_origin();

  event event_on_origin() const {
    const scoped_device on_device(origin_device_);
    return event{};
  }
};

}  // namespace

session_ptr set_up_kernel_only_threads(const multi_gpu_point& at, compute_target) {
  return std::make_unique<threaded_kernel_session>(shared_setup_for(at.config), at.scope);
}

}  // namespace handoff::patterns::multi_gpu
