// Writes the seed corpus of worker_replies_fuzzer (ci/fuzz --seed): for each protocol, the replies
// a real worker sends (its records through a real connection, or the seed variant's results
// through a real queue), and near misses for each check its coordinator makes (a bad magic number,
// another task or chunk, a failure with its text, a text without its terminator, a count that
// does not add up, a time no worker can take).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "connection_script.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "independent_tasks/task_protocol.hpp"
#include "pool_prep/protocol.hpp"
#include "postproc_split/summing_protocol.hpp"
#include "queued_worker/protocol.hpp"
#include "script_seed_writer.hpp"
#include "sent_bytes.hpp"

namespace {

using namespace handoff;
using namespace handoff::patterns;
using bytes = std::vector<std::byte>;
using fuzz_support::record_sent;

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// The protocols of worker_replies_fuzzer.cpp, by its first call byte.
enum target : std::uint8_t {
  queued_report = 0,
  queued_results = 1,
  tasks_ready = 2,
  tasks_reply = 3,
  sums_attach = 4,
  sums_reply = 5,
  prep_ready = 6,
  prep_map_reply = 7,
  prep_ring_reply = 8,
  transfer_reply = 9,
  transfer_verify = 10,
};
constexpr std::uint8_t not_running = 0x80;  // the second call byte's flag

stage_times some_stages(double last = 0.004) {
  return {.prep = 0.001,
          .serialize = 0,
          .h2d = 0.002,
          .kernel = 0.003,
          .d2h = 0.001,
          .deserialize = 0,
          .post = last};
}

queued_worker::protocol::worker_report report(std::uint64_t items) {
  queued_worker::protocol::worker_report out;
  out.items = items;
  out.stages = some_stages();
  return out;
}

// The seed variant's results as a real put_parts leaves them in the queue's pipe.
bytes results_stream(std::size_t elements,
                     std::vector<queued_worker::protocol::message_header> headers,
                     std::size_t floats_sent) {
  using namespace transport;
  auto queue = process_queue::create({.max_message_bytes = 1 << 20, .purpose = "seed"});
  const std::vector<float> values(std::max(elements, floats_sent), 2.5f);
  for (const auto& header : headers) {
    queue.put_parts(
        {std::as_bytes(std::span(&header, 1)), std::as_bytes(std::span(values).first(floats_sent))},
        deadline_clock::now() + std::chrono::seconds(5));
  }
  bytes stream(1 << 16);
  const ssize_t got = ::read(queue.descriptors().at(1), stream.data(), stream.size());
  stream.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  return stream;
}

queued_worker::protocol::message_header result_header(std::uint64_t index, std::uint64_t elements) {
  return {.index = index, .elements = elements};
}

independent_tasks::task_reply task_reply(std::uint64_t task, double kernel = 0.003) {
  return {.task = task,
          .sum = 42.0f,
          .deserialize = 0.001,
          .h2d = 0.001,
          .kernel = kernel,
          .d2h = 0.001};
}

postproc_split::sum_reply sum_reply(postproc_split::request_kind kind, std::uint64_t chunk,
                                    double post = 0.002) {
  return {.kind = kind,
          .chunk_index = chunk,
          .partial = 10.5,
          .deserialize_seconds = 0.001,
          .post_seconds = post};
}

// A map worker's reply as it sends it: the header and the chunk's floats in one message.
bytes map_reply(pool_prep::protocol::map_reply_header header, std::size_t floats) {
  const std::vector<float> values(floats, 3.0f);
  return fuzz_support::sent_by([&](auto& channel, auto deadline) {
    channel.send_parts({std::as_bytes(std::span(&header, 1)), std::as_bytes(std::span(values))},
                       deadline);
  });
}

pool_prep::protocol::map_reply_header map_header(std::uint64_t chunk, std::uint64_t count,
                                                 double prep = 0.001) {
  return {.chunk = chunk, .count = count, .ok = 1, .prep = prep, .h2d = 0, .kernel = 0, .d2h = 0};
}

reply_record receiver_reply(stage_times stages = some_stages()) {
  reply_record out;
  out.ok = 1;
  out.stages = stages;
  return out;
}

reply_record verify_reply(std::uint64_t checked, std::uint64_t mismatches, bool has_first,
                          std::uint64_t first = 0) {
  reply_record out = receiver_reply();
  out.checked = checked;
  out.mismatches = mismatches;
  out.has_first_mismatch = has_first ? 1 : 0;
  out.first_mismatch = first;
  out.first_expected = 1;
  out.first_actual = 2;
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  const script_seed_writer write(*seeds);

  // queued_worker: the report after a batch of 3 items, and after the batch of none at start-up.
  write("queued-report", {queued_report, 3}, {record_sent(report(3))});
  write("queued-report-ready", {queued_report, 0},
        {record_sent(report(0)), record_sent(report(0))});
  auto failed = report(3);
  failed.set_error("CUDA error: out of memory");
  write("near-queued-report-failed", {queued_report, 3}, {record_sent(failed)});
  auto unterminated = report(3);
  unterminated.ok = 0;
  unterminated.error.fill('x');
  write("near-queued-report-text-unterminated", {queued_report, 3}, {record_sent(unterminated)});
  auto bad_magic = report(3);
  bad_magic.magic = 0;
  write("near-queued-report-bad-magic", {queued_report, 3}, {record_sent(bad_magic)});
  write("near-queued-report-other-count", {queued_report, 3}, {record_sent(report(2))});
  auto negative = report(3);
  negative.stages.kernel = -0.5;
  write("near-queued-report-negative-time", {queued_report, 3}, {record_sent(negative)});
  auto nan = report(3);
  nan.stages.d2h = not_a_number;
  write("near-queued-report-time-not-a-number", {queued_report, 3}, {record_sent(nan)});

  // queued_worker seed: results 0 and 1 of 4 floats each.
  write("queued-results", {queued_results, 4},
        {results_stream(4, {result_header(0, 4), result_header(1, 4)}, 4)});
  write("near-queued-results-out-of-order", {queued_results, 4},
        {results_stream(4, {result_header(1, 4)}, 4)});
  write("near-queued-results-other-size", {queued_results, 4},
        {results_stream(4, {result_header(0, 3)}, 3)});
  auto sentinel = result_header(0, 4);
  sentinel.kind = queued_worker::protocol::message_kind::end_of_batch;
  write("near-queued-results-a-sentinel", {queued_results, 4}, {results_stream(4, {sentinel}, 4)});
  write("near-queued-results-too-long", {queued_results, 4},
        {results_stream(4, {result_header(0, 4)}, 6)});

  // independent_tasks: a ready message, and the reply to task 5.
  write("tasks-ready", {tasks_ready, 0}, {record_sent(independent_tasks::worker_ready{})});
  write("near-tasks-ready-twice", {tasks_ready, not_running},
        {record_sent(independent_tasks::worker_ready{})});
  write("near-tasks-ready-bad-magic", {tasks_ready, 0},
        {record_sent(independent_tasks::worker_ready{.magic = 1})});
  write("tasks-reply", {tasks_reply, 5}, {record_sent(task_reply(5))});
  write("near-tasks-reply-other-task", {tasks_reply, 5}, {record_sent(task_reply(4))});
  write("near-tasks-reply-not-running", {tasks_reply, not_running | 5},
        {record_sent(task_reply(5))});
  write("near-tasks-reply-negative-time", {tasks_reply, 5}, {record_sent(task_reply(5, -1))});
  write("near-tasks-reply-infinite-time", {tasks_reply, 5},
        {record_sent(task_reply(5, std::numeric_limits<double>::infinity()))});

  // postproc_split: the reply to attach, and to chunk 2.
  using postproc_split::request_kind;
  write("sums-attach", {sums_attach, 0}, {record_sent(sum_reply(request_kind::attach, 0))});
  write("near-sums-attach-other-kind", {sums_attach, 0},
        {record_sent(sum_reply(request_kind::sum_shared, 0))});
  write("sums-reply", {sums_reply, 2},
        {record_sent(sum_reply(request_kind::sum_payload, 2)),
         record_sent(sum_reply(request_kind::sum_shared, 2))});
  write("near-sums-reply-other-chunk", {sums_reply, 2},
        {record_sent(sum_reply(request_kind::sum_payload, 3))});
  write("near-sums-reply-owing-nothing", {sums_reply, not_running | 2},
        {record_sent(sum_reply(request_kind::sum_payload, 2))});
  write("near-sums-reply-time-not-a-number", {sums_reply, 2},
        {record_sent(sum_reply(request_kind::sum_payload, 2, not_a_number))});

  // pool_prep: a ready record, the map reply to chunk 3 of 2 floats, the ring reply to 4 chunks.
  pool_prep::protocol::ready_record ready{.ok = 1};
  write("prep-ready", {prep_ready, 0}, {record_sent(ready)});
  pool_prep::protocol::ready_record not_ready{.ok = 0};
  not_ready.error.set("cudaHostRegister: invalid argument");
  write("near-prep-ready-failed", {prep_ready, 0}, {record_sent(not_ready)});
  std::fill(std::begin(not_ready.error.text), std::end(not_ready.error.text), 'y');
  write("near-prep-ready-text-unterminated", {prep_ready, 0}, {record_sent(not_ready)});
  constexpr std::uint8_t chunk_3_of_2 = 3 + 2 * 8;
  write("prep-map-reply", {prep_map_reply, chunk_3_of_2}, {map_reply(map_header(3, 2), 2)});
  write("near-prep-map-reply-other-chunk", {prep_map_reply, chunk_3_of_2},
        {map_reply(map_header(2, 2), 2)});
  auto chunk_failed = map_header(3, 2);
  chunk_failed.ok = 0;
  chunk_failed.error.set("CUDA error");
  write("near-prep-map-reply-failed", {prep_map_reply, chunk_3_of_2}, {map_reply(chunk_failed, 0)});
  write("near-prep-map-reply-short", {prep_map_reply, chunk_3_of_2},
        {map_reply(map_header(3, 2), 1)});
  write("near-prep-map-reply-shorter-than-its-header", {prep_map_reply, chunk_3_of_2},
        {fuzz_support::sent_by([](auto& channel, auto deadline) {
          const std::vector<std::byte> part(16, std::byte{0});
          channel.send(part, deadline);
        })});
  write("near-prep-map-reply-negative-time", {prep_map_reply, chunk_3_of_2},
        {map_reply(map_header(3, 2, -0.25), 2)});
  write("prep-ring-reply", {prep_ring_reply, 4},
        {record_sent(pool_prep::protocol::ring_reply{.ok = 1, .chunks_prepared = 4, .prep = 0.1})});
  write("near-prep-ring-reply-other-count", {prep_ring_reply, 4},
        {record_sent(pool_prep::protocol::ring_reply{.ok = 1, .chunks_prepared = 3, .prep = 0.1})});
  write("near-prep-ring-reply-time-not-a-number", {prep_ring_reply, 4},
        {record_sent(
            pool_prep::protocol::ring_reply{.ok = 1, .chunks_prepared = 4, .prep = not_a_number})});

  // tensor_transfer: a receive's reply, and the verification of a 64-byte destination.
  write("transfer-reply", {transfer_reply, 0}, {record_sent(receiver_reply())});
  reply_record transfer_error;
  transfer_error.set_error("frame rejected: bad magic");
  write("near-transfer-reply-failed", {transfer_reply, 0}, {record_sent(transfer_error)});
  transfer_error.error.fill('z');
  write("near-transfer-reply-text-unterminated", {transfer_reply, 0},
        {record_sent(transfer_error)});
  write("near-transfer-reply-negative-time", {transfer_reply, 0},
        {record_sent(receiver_reply(some_stages(-1)))});
  constexpr std::uint8_t bytes_64 = 16;
  write("transfer-verify", {transfer_verify, bytes_64}, {record_sent(verify_reply(64, 0, false))});
  write("transfer-verify-mismatches", {transfer_verify, bytes_64},
        {record_sent(verify_reply(64, 2, true, 5))});
  write("near-transfer-verify-nothing-checked", {transfer_verify, bytes_64},
        {record_sent(verify_reply(0, 0, false))});
  write("near-transfer-verify-mismatches-without-a-first", {transfer_verify, bytes_64},
        {record_sent(verify_reply(64, 3, false))});
  write("near-transfer-verify-first-outside", {transfer_verify, bytes_64},
        {record_sent(verify_reply(64, 1, true, 64))});
  write("near-transfer-verify-more-mismatches-than-bytes", {transfer_verify, bytes_64},
        {record_sent(verify_reply(64, 65, true, 0))});
  return 0;
}
