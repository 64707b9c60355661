// libFuzzer target for the replies workers send back to their coordinators in patterns/src: what
// a worker that does not follow its protocol (or lies in it) can make a coordinator accept. The
// input (connection_script.hpp) is what the worker sends, as it sends it, and its first call byte
// picks the protocol, the next one the coordinator's state (the task or chunk it expects, the
// batch's size). Each reply goes through the coordinator's real reading and checking:
//   0 queued_worker's report (receive_record, check_report)
//   1 queued_worker seed's result header, from the results queue (get_into, check_result_header)
//   2, 3 independent_tasks' ready message and task reply (check_ready, check_reply)
//   4, 5 postproc_split's replies to attach and to a sum (check_attach_reply, check_sum_reply)
//   6, 7, 8 pool_prep's ready record, map reply (header, then payload) and ring reply
//   9, 10 tensor_transfer's receiver reply, plain and to verify (check_reply, verification_of)
// A reply the coordinator takes must be what it expects: the task, chunk, item or count it asked
// for, stage times a worker could have taken (finite, not negative), and a verification that adds
// up (all of the destination's bytes checked, a first mismatch exactly when there are mismatches,
// inside the destination). Anything else must be a process_error (worker_failed,
// protocol_violation, chunk_failed, transfer_failed, channel_corrupted, message_too_large, ...).
// A crash, an ASan or UBSan report, another exception type, a deadline_exceeded (the worker has
// hung up, so nothing is left to wait for) or an allocation beyond -malloc_limit_mb is a finding.

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "connection_script.hpp"
#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/process_errors.hpp"
#include "independent_tasks/task_replies.hpp"
#include "pool_prep/replies.hpp"
#include "postproc_split/sum_replies.hpp"
#include "queued_worker/reply_checks.hpp"
#include "tensor_transfer/receiver_replies.hpp"

namespace {

using namespace handoff;
using namespace handoff::transport;
using fuzz_support::require;

const std::string worker = "fuzz-worker";

void require_seconds(double seconds) {
  require(std::isfinite(seconds) && seconds >= 0, "a time a worker could have taken");
}

void require_stages(const patterns::stage_times& stages) {
  for (const double seconds : {stages.prep, stages.serialize, stages.h2d, stages.kernel, stages.d2h,
                               stages.deserialize, stages.post}) {
    require_seconds(seconds);
  }
}

// What the coordinator expects, from the second call byte.
struct expectation {
  std::uint8_t byte;
  std::size_t small() const { return byte % 8; }
  bool flag() const { return (byte & 0x80) != 0; }
};

// One reply of the protocol, read from channel and checked; false when the protocol reads one.
bool read_reply(std::uint8_t protocol, expectation expected, connection& channel,
                deadline_clock::time_point deadline) {
  switch (protocol) {
    case 0: {
      const auto report =
          channel.receive_record<patterns::queued_worker::protocol::worker_report>(deadline);
      require(report.error_text().size() <= report.error.size(), "a report's text inside it");
      patterns::queued_worker::check_report(report, worker, expected.small());
      require(report.items == expected.small(), "a report for the batch's items");
      require_stages(report.stages);
      return true;
    }
    case 2: {
      const auto ready =
          channel.receive_record<patterns::independent_tasks::worker_ready>(deadline);
      patterns::independent_tasks::check_ready(ready, expected.flag(), worker);
      require(!expected.flag(), "one ready message per worker");
      return true;
    }
    case 3: {
      const auto reply = channel.receive_record<patterns::independent_tasks::task_reply>(deadline);
      const auto running =
          expected.flag() ? std::nullopt : std::optional<std::uint64_t>(expected.small());
      patterns::independent_tasks::check_reply(reply, running, worker);
      require(running && reply.task == *running, "a reply for the task the worker runs");
      for (const double seconds : {reply.deserialize, reply.h2d, reply.kernel, reply.d2h})
        require_seconds(seconds);
      return true;
    }
    case 4: {
      const auto reply = channel.receive_record<patterns::postproc_split::sum_reply>(deadline);
      patterns::postproc_split::check_attach_reply(reply, worker);
      return true;
    }
    case 5: {
      const auto reply = channel.receive_record<patterns::postproc_split::sum_reply>(deadline);
      const auto oldest =
          expected.flag() ? std::nullopt : std::optional<std::size_t>(expected.small());
      patterns::postproc_split::check_sum_reply(reply, oldest, worker);
      require(oldest && reply.chunk_index == *oldest, "a reply for the oldest chunk in flight");
      require_seconds(reply.deserialize_seconds);
      require_seconds(reply.post_seconds);
      return true;
    }
    case 6: {
      const auto ready =
          channel.receive_record<patterns::pool_prep::protocol::ready_record>(deadline);
      require(ready.error.get().size() <= sizeof(ready.error.text), "a failure's text inside it");
      patterns::pool_prep::check_ready(ready, worker, "could not start");
      return true;
    }
    case 7: {
      // As map_pool::receive_result: the length within what the chunk needs, the header, then the
      // payload straight into the result.
      namespace protocol = patterns::pool_prep::protocol;
      const std::uint64_t chunk = expected.small();
      const std::uint64_t count = expected.byte / 8 % 16;
      const std::uint64_t length =
          channel.receive_length(deadline, sizeof(protocol::map_reply_header) + count * 4);
      patterns::pool_prep::check_map_reply_length(length, worker);
      protocol::map_reply_header header;
      channel.receive_body(std::as_writable_bytes(std::span(&header, 1)), deadline);
      patterns::pool_prep::check_map_reply(header, length, chunk, count, worker);
      require(header.chunk == chunk && header.count == count, "a reply for the chunk asked");
      std::vector<float> result(count);
      channel.receive_body(std::as_writable_bytes(std::span(result)), deadline);
      for (const double seconds : {header.prep, header.h2d, header.kernel, header.d2h})
        require_seconds(seconds);
      return true;
    }
    case 8: {
      const auto reply =
          channel.receive_record<patterns::pool_prep::protocol::ring_reply>(deadline);
      patterns::pool_prep::check_ring_reply(reply, expected.small(), worker);
      require(reply.chunks_prepared == expected.small(), "a reply for the batch's chunks");
      require_seconds(reply.prep);
      return true;
    }
    case 9:
    case 10: {
      const auto reply = channel.receive_record<patterns::reply_record>(deadline);
      require(reply.error_text().size() <= reply.error.size(), "a reply's text inside it");
      patterns::check_reply(reply, "fuzz-row", worker);
      require_stages(reply.stages);
      if (protocol == 10) {
        const std::uint64_t bytes = std::uint64_t{expected.byte} * 4;
        const auto verified = patterns::verification_of(reply, bytes, worker);
        require(verified.checked == bytes, "every byte of the destination checked");
        require(verified.mismatches <= verified.checked, "no more mismatches than bytes");
        require(verified.first.has_value() == (verified.mismatches > 0),
                "a first mismatch exactly when there are mismatches");
        require(!verified.first || verified.first->index < verified.checked,
                "a first mismatch inside the destination");
      }
      return true;
    }
    default:
      return false;
  }
}

// queued_worker's seed variant: its results come on a process_queue, each a message_header and the
// result's floats, taken in order with get_into.
void read_seed_results(const fuzz_support::script& input, expectation expected) {
  auto queue = process_queue::create({.max_message_bytes = 1 << 20, .purpose = "fuzz-results"});
  std::vector<std::uint8_t> stream;
  for (const auto& piece : input.pieces)
    stream.insert(stream.end(), piece.bytes.begin(), piece.bytes.end());
  // Within one pipe's capacity, so that writing never waits.
  if (stream.empty() || stream.size() > (std::size_t{1} << 16)) return;
  require(::write(queue.descriptors().at(2), stream.data(), stream.size()) ==
              static_cast<ssize_t>(stream.size()),
          "write");
  const std::size_t elements = expected.small();
  std::vector<float> output(elements);
  for (std::size_t index = 0; index < stream.size(); ++index) {
    patterns::queued_worker::protocol::message_header header;
    const std::size_t length = queue.get_into(
        {std::as_writable_bytes(std::span(&header, 1)), std::as_writable_bytes(std::span(output))},
        deadline_clock::now());
    patterns::queued_worker::check_result_header(header, length, index, elements, worker);
    require(header.index == index && length == sizeof(header) + elements * sizeof(float),
            "a result in order, of its size");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz_support::script input = fuzz_support::script::parse({data, size});
  const std::uint8_t protocol = input.calls.empty() ? 0 : input.calls[0] % 11;
  const expectation expected{input.calls.size() < 2 ? std::uint8_t{0} : input.calls[1]};
  try {
    if (protocol == 1) {
      read_seed_results(input, expected);
      return 0;
    }
    auto [coordinator, sender] = connection::make_pair(worker, "coordinator");
    fuzz_support::send_script(sender.native_handle(), input);
    { const connection hang_up = std::move(sender); }
    // The worker has hung up, so nothing may wait; the deadline only keeps a finding from hanging.
    const auto deadline = deadline_clock::now() + std::chrono::seconds(2);
    while (read_reply(protocol, expected, coordinator, deadline)) {
    }
  } catch (const deadline_exceeded&) {
    require(protocol == 1, "no wait once the worker has hung up");
  } catch (const process_error&) {
    // The coordinator refuses the reply (or the stream has ended).
  }
  return 0;
}
