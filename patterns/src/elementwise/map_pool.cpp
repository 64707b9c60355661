#include "handoff/patterns/elementwise/map_pool.hpp"

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "handoff/wall_clock.hpp"
#include "map_protocol.hpp"

namespace handoff::patterns::elementwise {

using transport::connection;
using transport::deadline_clock;

namespace {

using namespace map_protocol;

constexpr std::size_t max_map_workers = 4;
constexpr std::size_t items_in_flight_per_worker = 2;

std::size_t pool_size_checked(std::size_t workers) {
  if (workers == 0) throw std::invalid_argument("map_pool: at least one worker is needed");
  return workers;
}

// What one batch sends: the item count and how to write item i into a message.
class batch_plan {
 public:
  explicit batch_plan(const extended_problem& problem)
      : problem_(problem),
        workload_(static_cast<std::uint32_t>(problem.workload())),
        n_(problem.order()),
        items_(problem.workload() == extended_workload::affine ? n_ : problem.output_count()),
        column_(n_) {}

  std::size_t items() const noexcept { return items_; }
  std::size_t values_per_result() const noexcept { return n_ == 0 ? 1 : n_; }

  // The set-up message: W then b for affine, nothing else otherwise.
  std::uint64_t send_begin(connection& channel, deadline_clock::time_point deadline) const {
    const std::uint64_t values = n_ == 0 ? 0 : n_ * n_ + n_;
    const header head{kind::begin_batch, workload_, n_, values, 0.0};
    if (n_ == 0) {
      channel.send_parts({bytes_of(head)}, deadline);
    } else {
      channel.send_parts({bytes_of(head), bytes_of(problem_.input(0)), bytes_of(problem_.input(2))},
                         deadline);
    }
    return wire_bytes(values);
  }

  std::uint64_t send_task(connection& channel, std::size_t item,
                          deadline_clock::time_point deadline) {
    std::span<const float> payload;
    float pair[2];
    switch (problem_.workload()) {
      case extended_workload::square:
        payload = problem_.input(0).subspan(item, 1);
        break;
      case extended_workload::neg_b_over_a:
        pair[0] = problem_.input(0)[item];
        pair[1] = problem_.input(1)[item];
        payload = pair;
        break;
      case extended_workload::affine: {
        const auto x = problem_.input(1);  // row-major: column j is strided, gathered here
        for (std::size_t k = 0; k < n_; ++k)
          column_[k] = x[k * n_ + item];
        payload = column_;
        break;
      }
    }
    const header head{kind::task, workload_, item, payload.size(), 0.0};
    channel.send_parts({bytes_of(head), bytes_of(payload)}, deadline);
    return wire_bytes(payload.size());
  }

  // Scatters one result into out; returns the worker's compute seconds.
  double take_result(const parsed& message, std::span<float> out,
                     std::vector<std::uint8_t>& seen) const {
    const std::uint64_t item = check_result(message, workload_, values_per_result(), seen);
    if (n_ == 0) {
      out[item] = message.values[0];
    } else {
      for (std::size_t i = 0; i < n_; ++i)
        out[i * n_ + item] = message.values[i];
    }
    return message.head.compute_seconds;
  }

 private:
  const extended_problem& problem_;
  std::uint32_t workload_;
  std::size_t n_;
  std::size_t items_;
  std::vector<float> column_;
};

}  // namespace

std::size_t default_map_workers() {
  return std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, max_map_workers);
}

map_pool::map_pool(std::size_t workers, std::chrono::milliseconds wait_timeout)
    : pool_("map", pool_size_checked(workers), {.role = map_worker_role}),
      wait_timeout_(wait_timeout) {}

map_batch_stats map_pool::run(const extended_problem& problem, std::span<float> out) {
  if (out.size() != problem.output_count()) {
    throw std::invalid_argument("map_pool: the output holds " + std::to_string(out.size()) +
                                " values, the problem makes " +
                                std::to_string(problem.output_count()));
  }
  if (problem.order() > max_map_order) {
    throw std::invalid_argument("map_pool: affine order " + std::to_string(problem.order()) +
                                " exceeds the map workers' cap of " +
                                std::to_string(max_map_order));
  }
  return latch_.run([&] { return run_batch(problem, out); });
}

map_batch_stats map_pool::run_batch(const extended_problem& problem, std::span<float> out) {
  const auto deadline = [this] { return deadline_clock::now() + wait_timeout_; };
  map_batch_stats stats;
  batch_plan plan(problem);
  std::vector<std::uint8_t> seen(plan.items(), 0);
  std::size_t next_item = 0;

  const auto send_next = [&](std::size_t worker) {
    const auto start = wall_clock::now();
    stats.bytes += pool_.with_worker(worker, [&](connection& channel) {
      return plan.send_task(channel, next_item, deadline());
    });
    stats.stages.serialize += seconds_since(start);
    ++stats.messages;
    ++next_item;
  };

  for (std::size_t worker = 0; worker < pool_.size(); ++worker) {
    const auto start = wall_clock::now();
    stats.bytes += pool_.with_worker(
        worker, [&](connection& channel) { return plan.send_begin(channel, deadline()); });
    stats.stages.serialize += seconds_since(start);
    ++stats.messages;
  }
  for (std::size_t round = 0; round < items_in_flight_per_worker; ++round) {
    for (std::size_t worker = 0; worker < pool_.size() && next_item < plan.items(); ++worker)
      send_next(worker);
  }
  for (std::size_t received = 0; received < plan.items(); ++received) {
    const std::size_t worker = pool_.wait_for_message(deadline());
    const auto start = wall_clock::now();
    const auto message = pool_.with_worker(worker, [&](connection& channel) {
      return parse(channel.receive(deadline(), max_result_bytes),
                   pool_.worker_name(worker).c_str());
    });
    stats.stages.kernel += plan.take_result(message, out, seen);
    stats.stages.deserialize += seconds_since(start);
    stats.bytes += wire_bytes(message.head.values);
    ++stats.messages;
    if (next_item < plan.items()) send_next(worker);
  }
  return stats;
}

void map_pool::shutdown() {
  latch_.close_for_shutdown();
  pool_.shutdown_expecting_success(wait_timeout_);
}

}  // namespace handoff::patterns::elementwise
