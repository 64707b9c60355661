// The seed's producer, as the recipe writes it: every (a, b) by value into data_queue, the
// sentinel, then the joins and the results. The recipe's order (join, join, drain) deadlocks
// twice; handoff keeps it only when a test turns a fix off to show it, with deadlines.

#include <string>

#include "reply_checks.hpp"
#include "session_state.hpp"

namespace handoff::patterns::queued_worker {

using transport::deadline_exceeded;

namespace {

std::span<const std::byte> header_bytes(const protocol::message_header& header) {
  return std::as_bytes(std::span(&header, 1));
}

// data_queue.join(): returns once every task put was marked done.
void join_data_queue(session_state& state) {
  const auto timeout = state.setup.join_timeout;
  try {
    state.data_queue->join(transport::deadline_clock::now() + timeout, state.worker_watch());
  } catch (const deadline_exceeded&) {
    throw deadline_exceeded(
        "data_queue.join() on " + state.data_queue->purpose() + " timed out after " +
        std::to_string(timeout.count()) + " ms with " +
        std::to_string(state.data_queue->approximate_unfinished_tasks()) +
        " task(s) unfinished: a worker that never calls task_done for the sentinel leaves one "
        "forever (fix 1: task_done_for_sentinel)");
  }
}

// gpu_process.join(): the worker exits only once its results are all in the pipe.
void join_worker(session_state& state, std::size_t results_undrained) {
  try {
    state.worker->join(state.setup.join_timeout);
  } catch (const deadline_exceeded& error) {
    throw deadline_exceeded(std::string(error.what()) + "; " + std::to_string(results_undrained) +
                            " result(s) were still undrained, and a worker cannot exit before the "
                            "pipe takes what it put (fix 2: drain_results_before_join)");
  }
}

// Takes the results in order, each straight into its output.
void drain_results(session_state& state, std::span<const std::span<float>> outputs,
                   stage_times& stages) {
  const auto start = wall_clock::now();
  for (std::size_t index = 0; index < outputs.size(); ++index) {
    protocol::message_header header;
    const auto length = state.results_queue->get_into(
        {std::as_writable_bytes(std::span(&header, 1)), std::as_writable_bytes(outputs[index])},
        state.step_deadline(), state.worker_watch());
    check_result_header(header, length, index, outputs[index].size(), state.worker->name());
  }
  stages.deserialize += seconds_since(start);
}

}  // namespace

batch_result run_seed_batch(session_state& state, std::span<const work_item> items,
                            std::span<const std::span<float>> outputs, protocol::ending how) {
  batch_result result;
  const auto start = wall_clock::now();
  const auto watch = state.worker_watch();
  state.worker->control().send_record(protocol::batch_begin{.how = how}, state.step_deadline());
  for (std::size_t index = 0; index < items.size(); ++index) {
    const protocol::message_header header{.index = index, .elements = items[index].a.size()};
    state.data_queue->put_parts(
        {header_bytes(header), std::as_bytes(items[index].a), std::as_bytes(items[index].b)},
        state.step_deadline(), watch);
  }
  const protocol::message_header sentinel{.kind = protocol::sentinel_kind(how),
                                          .index = items.size()};
  state.data_queue->put(header_bytes(sentinel), state.step_deadline(), watch);

  protocol::worker_report report;
  if (state.setup.fixes.drain_results_before_join) {
    // Fix 2: the results first, so the worker's puts complete and it can finish and exit.
    drain_results(state, outputs, result.stages);
    join_data_queue(state);
    report = state.receive_report(items.size());
    if (how == protocol::ending::stop) join_worker(state, 0);
  } else {
    // The recipe's order: data_queue.join(), gpu_process.join(), then the results.
    join_data_queue(state);
    if (how == protocol::ending::stop) join_worker(state, items.size());
    drain_results(state, outputs, result.stages);
    report = state.receive_report(items.size());
  }
  result.stages += report.stages;
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace handoff::patterns::queued_worker
