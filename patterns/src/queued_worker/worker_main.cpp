// The GPU worker process: takes its setup from its arguments, reports ready, and runs batches
// until a stop sentinel or the end of its control channel. A failure is reported on the control
// channel (best effort), and the exit code says it.

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "declared_variants.hpp"
#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {

using transport::deadline_clock;
using namespace std::chrono_literals;

std::optional<protocol::ending> wait_for_batch(transport::connection& control) {
  const auto watch = coordinator_watch();
  while (true) {
    watch();
    if (!control.poll(1000ms)) continue;
    try {
      const auto begin = control.receive_record<protocol::batch_begin>(deadline_clock::now() + 10s);
      if (begin.magic != protocol::magic ||
          (begin.how != protocol::ending::end_of_batch && begin.how != protocol::ending::stop)) {
        throw std::invalid_argument("a batch command with a bad magic number or ending");
      }
      return begin.how;
    } catch (const transport::channel_closed&) {
      return std::nullopt;
    }
  }
}

void send_report(transport::connection& control, const protocol::worker_report& report,
                 std::chrono::milliseconds patience) {
  control.send_record(report, deadline_clock::now() + patience);
}

transport::peer_watch coordinator_watch() {
  const pid_t coordinator = ::getppid();
  return [coordinator] {
    if (::getppid() != coordinator)
      throw transport::channel_closed("the coordinator has gone away");
  };
}

void pause_if_asked(const protocol::worker_arguments& arguments, std::size_t items_done) {
  if (arguments.pause_after_items == 0 || items_done != arguments.pause_after_items) return;
  const auto watch = coordinator_watch();
  const auto until = deadline_clock::now() + arguments.patience;
  while (deadline_clock::now() < until) {
    watch();
    std::this_thread::sleep_for(10ms);
  }
}

int run_gpu_worker(std::span<const std::string> raw_arguments) {
  auto control = transport::coordinator_connection();
  std::chrono::milliseconds patience = 10s;
  try {
    const auto arguments = protocol::worker_arguments::decode(raw_arguments);
    patience = arguments.patience;
    row_of(arguments.variant).specifics.run_worker(arguments, control);
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "queued_worker gpu worker: %s\n", error.what());
    try {
      protocol::worker_report report;
      report.set_error(error.what());
      send_report(control, report, std::min<std::chrono::milliseconds>(patience, 1s));
    } catch (const std::exception&) {
      // The coordinator is gone or not listening; the exit code still says it.
    }
    return 1;
  }
}

}  // namespace handoff::patterns::queued_worker
