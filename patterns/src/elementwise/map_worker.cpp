// A map worker: receives a batch's set-up, then items one message at a time, and answers each with
// its result. It exits with 0 when the coordinator closes the channel.

#include <chrono>
#include <string>

#include "extended_cpu_math.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/wall_clock.hpp"
#include "map_protocol.hpp"

namespace handoff::patterns::elementwise {

using transport::process_error;

namespace {

using namespace map_protocol;

// A pool kept between batches may idle for as long as other benchmarks run; the coordinator's
// death still ends the worker at once, by the end of file on its channel.
constexpr auto idle_deadline = std::chrono::hours(1);
constexpr auto reply_deadline = std::chrono::seconds(30);
constexpr std::uint64_t max_message_bytes =
    sizeof(header) + (max_map_order * max_map_order + max_map_order) * sizeof(float);

extended_workload checked_workload(std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(extended_workload::affine)) {
    throw process_error("map worker: unknown workload " + std::to_string(value));
  }
  return static_cast<extended_workload>(value);
}

void require(bool condition, const std::string& what) {
  if (!condition) throw process_error("map worker: " + what);
}

struct batch_state {
  bool begun = false;
  extended_workload workload = extended_workload::square;
  std::size_t n = 0;
  std::vector<float> w, bias;

  void begin(const parsed& message) {
    workload = checked_workload(message.head.workload);
    if (workload == extended_workload::affine) {
      n = message.head.index;
      require(n >= 1 && n <= max_map_order, "affine order " + std::to_string(n) + " out of range");
      require(message.values.size() == n * n + n, "affine set-up holds the wrong number of values");
      w.assign(message.values.begin(), message.values.begin() + static_cast<long>(n * n));
      bias.assign(message.values.begin() + static_cast<long>(n * n), message.values.end());
    } else {
      require(message.values.empty(), "an elementwise set-up carries no values");
      n = 0;
    }
    begun = true;
  }

  std::vector<float> compute(const parsed& message) const {
    require(begun, "a task before the batch's set-up");
    require(message.head.workload == static_cast<std::uint32_t>(workload),
            "a task of another workload than the batch's");
    const auto& in = message.values;
    switch (workload) {
      case extended_workload::square:
        require(in.size() == 1, "a square task holds one value");
        return {cpu_math::square(in[0])};
      case extended_workload::neg_b_over_a:
        require(in.size() == 2, "a neg_b_over_a task holds the pair (a, b)");
        return {cpu_math::neg_b_over_a(in[0], in[1])};
      case extended_workload::affine: {
        require(in.size() == n, "an affine task holds one column of n values");
        std::vector<float> column(n);
        cpu_math::affine_column(n, w, in, bias, column);
        return column;
      }
    }
    throw process_error("map worker: unreachable workload");
  }
};

}  // namespace

int run_map_worker(std::span<const std::string>) {
  auto channel = transport::coordinator_connection();
  batch_state batch;
  while (true) {
    std::vector<std::byte> message;
    try {
      message =
          channel.receive(transport::deadline_clock::now() + idle_deadline, max_message_bytes);
    } catch (const transport::channel_closed&) {
      return 0;  // the coordinator is done with this worker
    }
    const auto request = parse(message, "coordinator");
    if (request.head.what == kind::begin_batch) {
      batch.begin(request);
      continue;
    }
    require(request.head.what == kind::task, "unexpected message kind");
    const auto start = wall_clock::now();
    const auto result = batch.compute(request);
    const double compute_seconds = seconds_since(start);
    const header reply{kind::result, request.head.workload, request.head.index, result.size(),
                       compute_seconds};
    channel.send_parts({bytes_of(reply), bytes_of(std::span<const float>(result))},
                       transport::deadline_clock::now() + reply_deadline);
  }
}

}  // namespace handoff::patterns::elementwise
