// A map worker: receives a batch's set-up, then items one message at a time, and answers each with
// its result. It exits with 0 when the coordinator closes the channel.

#include <chrono>
#include <string>

#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/wall_clock.hpp"
#include "map_batch.hpp"
#include "map_protocol.hpp"

namespace handoff::patterns::elementwise {
namespace {

using namespace map_protocol;

// A pool kept between batches may idle for as long as other benchmarks run; the coordinator's
// death still ends the worker at once, by the end of file on its channel.
constexpr auto idle_deadline = std::chrono::hours(1);
constexpr auto reply_deadline = std::chrono::seconds(30);

}  // namespace

int run_map_worker(std::span<const std::string>) {
  auto channel = transport::coordinator_connection();
  map_batch batch;
  while (true) {
    std::vector<std::byte> message;
    try {
      message =
          channel.receive(transport::deadline_clock::now() + idle_deadline, max_request_bytes);
    } catch (const transport::channel_closed&) {
      return 0;  // the coordinator is done with this worker
    }
    const auto request = parse(message, "coordinator");
    const auto start = wall_clock::now();
    const auto result = batch.take(request);
    if (!result) continue;  // the batch's set-up: nothing to answer
    const double compute_seconds = seconds_since(start);
    const header reply{kind::result, request.head.workload, request.head.index, result->size(),
                       compute_seconds};
    channel.send_parts({bytes_of(reply), bytes_of(std::span<const float>(*result))},
                       transport::deadline_clock::now() + reply_deadline);
  }
}

}  // namespace handoff::patterns::elementwise
