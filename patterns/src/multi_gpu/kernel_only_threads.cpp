// kernel_only from one host thread per device (launch_threads.hpp says why) instead of one thread
// that launches on each device in turn, joined two ways:
//   kernel_only_threads    on GPU 0's stream, as kernel_only: every device's stream waits for an
//                          event of GPU 0 before it starts, GPU 0 waits for an event of each at the
//                          end, and the run is timed between two events there. The two rows differ
//                          by the launch path alone, and compare with one rank per GPU under
//                          mpirun.
//   kernel_only_host_join  on the host: each thread waits for its own device, no device waits for
//                          another, and the run is timed on the host clock from handing the
//                          launches to the threads until the last device has finished. The launch
//                          path alone changed nothing measurable, while a noticeable share of the
//                          run lay outside the slowest GPU's busy span: the cross-device waits of
//                          the fork and the join.
// (figures: docs/design/measured-along-the-way.md, "What the launch threads change in kernel_only")

#include <cuda_runtime_api.h>

#include <stdexcept>

#include "handoff/patterns/multi_gpu/launch_threads.hpp"
#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "handoff/scoped_device.hpp"
#include "handoff/wall_clock.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

std::vector<int> ordinals_of(const partitioned_devices& devices) {
  std::vector<int> ordinals;
  for (const auto& slot : devices.slots())
    ordinals.push_back(slot.ordinal);
  return ordinals;
}

class threaded_kernel_session : public multi_gpu_session {
 public:
  threaded_kernel_session(std::shared_ptr<partitioned_setup> setup, run_scope scope,
                          std::string_view variant)
      : multi_gpu_session(setup, scope, gather_kind::none, variant),
        threads_(ordinals_of(*setup->devices)),
        origin_device_(setup->devices->slots().front().ordinal) {
    if (scope == run_scope::gather) {
      throw std::invalid_argument(std::string(variant) +
                                  " has no gather to time in scope 'gather'");
    }
  }

  void poison(multi_gpu_case& work) override { work.poison(); }

  reference::verification_result verify(const multi_gpu_case& work) const override {
    return work.verify();
  }

  cudaStream_t stream() const override { return setup().devices->origin(); }

 protected:
  launch_threads& threads() { return threads_; }

  // A slot's work once its timer has started: its uploads (from_host), its kernel, its timer's
  // stop.
  void enqueue_work(device_slot& slot) {
    auto& devices = *setup().devices;
    if (scope() == run_scope::from_host) devices.enqueue_uploads(slot);
    devices.enqueue_kernel(slot, setup().kernel);
    devices.finish(slot);
  }

  run_result counted(double seconds) {
    count_run(seconds, setup().devices->busy_seconds());
    return {.seconds = seconds, .stages = {}};
  }

  int origin_device() const noexcept { return origin_device_; }

  event event_on_origin() const {
    const scoped_device on_device(origin_device_);
    return event{};
  }

 private:
  launch_threads threads_;
  int origin_device_;
};

class event_joined_session final : public threaded_kernel_session {
 public:
  event_joined_session(std::shared_ptr<partitioned_setup> setup, run_scope scope)
      : threaded_kernel_session(std::move(setup), scope, "kernel_only_threads") {}

  run_result run(multi_gpu_case& work) override {
    check_case(work);
    auto& devices = *setup().devices;
    start_.record(devices.origin());
    devices.record_fork_point();
    threads().run_on_each([&](std::size_t index) {
      auto& slot = devices.slots()[index];
      devices.start(slot);
      enqueue_work(slot);
    });
    devices.wait_for_slots();
    stop_.record(devices.origin());
    wait_for(stop_, site("run", origin_device()));
    return counted(elapsed_milliseconds(start_, stop_) * 1e-3);
  }

 private:
  // Made on GPU 0, like the origin stream they are recorded on.
  event start_ = event_on_origin();
  event stop_ = event_on_origin();
};

class host_joined_session final : public threaded_kernel_session {
 public:
  host_joined_session(std::shared_ptr<partitioned_setup> setup, run_scope scope)
      : threaded_kernel_session(std::move(setup), scope, "kernel_only_host_join") {}

  run_result run(multi_gpu_case& work) override {
    check_case(work);
    auto& devices = *setup().devices;
    const auto started = wall_clock::now();
    threads().run_on_each([&](std::size_t index) {
      auto& slot = devices.slots()[index];
      slot.busy_start.record(slot.stream.get());
      enqueue_work(slot);
      // Spins rather than blocks (as bounded_wait's first milliseconds do): a blocking wait
      // sleeps, and waking costs more than the joins it saves.
      wait_for(slot.done, site("run", slot.ordinal));
    });
    return counted(seconds_since(started));
  }
};

}  // namespace

session_ptr set_up_kernel_only_threads(const multi_gpu_point& at, compute_target) {
  return std::make_unique<event_joined_session>(shared_setup_for(at.config), at.scope);
}

session_ptr set_up_kernel_only_host_join(const multi_gpu_point& at, compute_target) {
  return std::make_unique<host_joined_session>(shared_setup_for(at.config), at.scope);
}

constinit const multi_gpu_row kernel_only_threads_variant{
    .name = "kernel_only_threads",
    .description = "kernel_only launched from one host thread per device",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_kernel_only_threads,
    .floor = floor_of<gather_kind::none>,
    .measured_at = at_the_headline_launch,
    .family = "kernel_only"};

constinit const multi_gpu_row kernel_only_host_join_variant{
    .name = "kernel_only_host_join",
    .description = "kernel_only_threads joined on the host, timed on the host clock",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_kernel_only_host_join,
    .floor = floor_of<gather_kind::none>,
    .measured_at = at_the_headline_launch,
    .family = "kernel_only"};

}  // namespace handoff::patterns::multi_gpu
