// libFuzzer target for the map messages of elementwise's map pool (patterns/src/elementwise/
// map_protocol.hpp): a header (kind, workload, index, value count, seconds) and its floats, as one
// connection message. The input (connection_script.hpp) is what the peer sends, and its first call
// byte picks which end reads it and the batch it is in:
//   - the coordinator, reading a worker's results as map_pool does: receive within
//     max_result_bytes, parse, check_result against a batch of square, neg_b_over_a or affine
//     items, then the scatter into the output;
//   - a worker, reading the coordinator's set-up and tasks as run_map_worker does: receive within
//     max_request_bytes, parse, map_batch::take.
// Each message must be taken whole and consistent (a result for an item of the batch, once, with
// its float count and a time a worker could have taken: finite, not negative; a task's result of
// one float or one column) or end in a process_error. Anything else is a finding: a crash, an
// ASan or UBSan report, another exception type, a deadline_exceeded (the peer has hung up), or an
// allocation beyond -malloc_limit_mb.

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "connection_script.hpp"
#include "elementwise/map_batch.hpp"
#include "elementwise/map_protocol.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/process_errors.hpp"

namespace {

using namespace handoff::patterns::elementwise;
using namespace handoff::transport;
using fuzz_support::require;

// The coordinator's batch: which workload, and its order (affine) or item count.
struct batch_shape {
  extended_workload workload;
  std::size_t n;      // affine's order, 0 otherwise
  std::size_t items;  // affine: n columns; otherwise one item per output
};

batch_shape shape_of(std::uint8_t workload, std::uint8_t size) {
  const auto kind = static_cast<extended_workload>(workload % 3);
  if (kind == extended_workload::affine) {
    const std::size_t n = 1 + size % 8;
    return {kind, n, n};
  }
  return {kind, 0, 1 + std::size_t{size} % 16};
}

void read_results(connection& channel, const batch_shape& batch,
                  deadline_clock::time_point deadline) {
  const std::size_t values_per_result = batch.n == 0 ? 1 : batch.n;
  std::vector<std::uint8_t> seen(batch.items, 0);
  std::vector<float> out(batch.n == 0 ? batch.items : batch.n * batch.n);
  for (std::size_t taken = 0; taken < batch.items; ++taken) {
    const auto message =
        map_protocol::parse(channel.receive(deadline, map_protocol::max_result_bytes), "worker");
    const std::uint64_t item = map_protocol::check_result(
        message, static_cast<std::uint32_t>(batch.workload), values_per_result, seen);
    require(item < batch.items, "a result for an item of the batch");
    require(message.values.size() == values_per_result, "a result of its float count");
    const double seconds = message.head.compute_seconds;
    require(std::isfinite(seconds) && seconds >= 0, "a time a worker could have taken");
    // The scatter of map_pool's take_result.
    if (batch.n == 0) {
      out[item] = message.values[0];
    } else {
      for (std::size_t i = 0; i < batch.n; ++i)
        out[i * batch.n + item] = message.values[i];
    }
  }
}

void read_requests(connection& channel, deadline_clock::time_point deadline) {
  map_batch batch;
  while (true) {
    const auto request = map_protocol::parse(
        channel.receive(deadline, map_protocol::max_request_bytes), "coordinator");
    const auto result = batch.take(request);
    if (!result) continue;
    require(!result->empty() && result->size() <= max_map_order, "one float or one column");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz_support::script input = fuzz_support::script::parse({data, size});
  const std::uint8_t side = input.calls.empty() ? 0 : input.calls[0];
  const std::uint8_t batch_size = input.calls.size() < 2 ? 0 : input.calls[1];
  auto [receiver, sender] = connection::make_pair("fuzz peer", "fuzz end");
  fuzz_support::send_script(sender.native_handle(), input);
  { const connection hang_up = std::move(sender); }
  // The peer has hung up, so nothing may wait; the deadline only keeps a finding from hanging.
  const auto deadline = deadline_clock::now() + std::chrono::seconds(2);
  try {
    if (side % 2 == 0) {
      read_results(receiver, shape_of(side / 2, batch_size), deadline);
    } else {
      read_requests(receiver, deadline);
    }
  } catch (const deadline_exceeded&) {
    require(false, "no wait once the peer has hung up");
  } catch (const process_error&) {
    // channel_closed, message_too_large, or a message the end refused.
  }
  return 0;
}
