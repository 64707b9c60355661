// The seed's gpu_worker, as the recipe writes it: take (a, b) by value from data_queue, run the
// recipe's per-item GPU body (fresh allocations, pageable copies), put c on results_queue,
// task_done. The sentinel ends the batch, or (stop) the worker.

#include <memory>

#include "handoff/patterns/workloads/seed_vector_add.hpp"
#include "handoff/wall_clock.hpp"
#include "result_feeder.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {
namespace {

void check_item_header(const protocol::message_header& header, std::size_t length,
                       std::size_t expected_index, std::size_t max_elements) {
  const auto fail = [&](const std::string& why) {
    throw protocol_violation("data_queue message " + std::to_string(expected_index) + ": " + why);
  };
  if (header.magic != protocol::magic) fail("bad magic number");
  if (header.kind == protocol::message_kind::item) {
    if (header.index != expected_index) {
      fail("came as item " + std::to_string(header.index) + ", out of order");
    }
    if (header.elements > max_elements) {
      fail(std::to_string(header.elements) + " elements, over the session's maximum");
    }
    if (length != sizeof(header) + 2 * header.elements * sizeof(float)) {
      fail(std::to_string(length) + " bytes for two vectors of " + std::to_string(header.elements) +
           " floats");
    }
  } else if (header.kind != protocol::message_kind::end_of_batch &&
             header.kind != protocol::message_kind::stop) {
    fail("unknown kind");
  } else if (length != sizeof(header)) {
    fail("a sentinel with a payload");
  }
}

}  // namespace

void run_seed_worker(const protocol::worker_arguments& arguments, transport::connection& control) {
  auto data_queue = transport::process_queue::attach(protocol::data_queue_fds);
  auto results_queue = transport::process_queue::attach(protocol::results_queue_fds);
  if (arguments.target == compute_target::device) create_device_context();
  std::vector<float> received(2 * arguments.max_item_elements);
  result_feeder feeder(results_queue, arguments.patience);
  send_report(control, protocol::worker_report{}, arguments.patience);  // ready

  const auto watch = coordinator_watch();
  const auto deadline = [&] { return transport::deadline_clock::now() + arguments.patience; };
  while (wait_for_batch(control)) {
    protocol::worker_report report;
    protocol::message_header header;
    while (true) {
      const auto start = wall_clock::now();
      const auto length = data_queue.get_into({std::as_writable_bytes(std::span(&header, 1)),
                                               std::as_writable_bytes(std::span(received))},
                                              deadline(), watch);
      // The payload crossing the pipe: the producer writes ahead, so this side's wait is the
      // transfer itself.
      report.stages.serialize += seconds_since(start);
      check_item_header(header, length, report.items, arguments.max_item_elements);
      if (header.kind != protocol::message_kind::item) {
        // The recipe breaks out of its loop here without task_done, so the producer's
        // data_queue.join() waits for that task forever.
        if (arguments.task_done_for_sentinel) data_queue.task_done();  // fix 1
        break;
      }
      const auto count = static_cast<std::size_t>(header.elements);
      pending_result result{header, std::make_unique_for_overwrite<float[]>(count)};
      seed_vector_add(arguments.target, std::span(received).first(count),
                      std::span(received).subspan(count, count),
                      std::span(result.values.get(), count), report.stages);
      feeder.put(std::move(result));
      data_queue.task_done();
      ++report.items;
      pause_if_asked(arguments, report.items);
    }
    feeder.flush(deadline());
    send_report(control, report, arguments.patience);
    if (header.kind == protocol::message_kind::stop) return;
  }
}

}  // namespace handoff::patterns::queued_worker
