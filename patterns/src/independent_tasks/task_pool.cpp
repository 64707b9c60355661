#include "handoff/patterns/independent_tasks/task_pool.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

#include "handoff/patterns/independent_tasks/task_worker.hpp"
#include "handoff/wall_clock.hpp"
#include "task_protocol.hpp"
#include "task_replies.hpp"

namespace handoff::patterns::independent_tasks {

using transport::connection;
using transport::deadline_clock;

namespace {

const task_pool_options& checked(const task_pool_options& options) {
  if (options.workers == 0)
    throw std::invalid_argument("task_pool: a pool needs at least 1 worker");
  if (options.patience.count() <= 0) throw std::invalid_argument("task_pool: patience must be > 0");
  return options;
}

transport::worker_launch launch_for(const task_pool_options& options) {
  return {.role = task_worker_role,
          .arguments = task_worker_arguments(options.target, options.task_delay)};
}

}  // namespace

std::size_t workers_for_cores(std::size_t datasets) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min(cores, datasets));
}

task_pool::task_pool(const task_pool_options& options)
    : options_(checked(options)), latch_(options_.name) {
  const auto start = wall_clock::now();
  pool_.emplace(options_.name, options_.workers, launch_for(options_));
  await_ready();
  start_seconds_ = seconds_since(start);
}

void task_pool::await_ready() {
  std::vector<bool> ready(pool_->size(), false);
  std::size_t waiting = pool_->size();
  const auto deadline = deadline_clock::now() + options_.patience;
  while (waiting > 0) {
    const std::size_t index = pool_->wait_for_message(deadline);
    const auto message = pool_->with_worker(
        index, [&](connection& channel) { return channel.receive_record<worker_ready>(deadline); });
    check_ready(message, ready[index], pool_->worker_name(index));
    ready[index] = true;
    --waiting;
  }
}

batch_result task_pool::map(std::span<const std::span<const float>> datasets) {
  return latch_.run([&] { return run_batch(datasets); });
}

batch_result task_pool::run_batch(std::span<const std::span<const float>> datasets) {
  const auto start = wall_clock::now();
  batch_result result;
  result.sums.assign(datasets.size(), std::numeric_limits<float>::quiet_NaN());
  std::vector<std::optional<std::uint64_t>> running(pool_->size());  // the task each worker holds
  std::vector<bool> used(pool_->size(), false);
  std::size_t next = 0;
  std::size_t done = 0;

  const auto hand_out = [&](std::size_t worker) {
    const std::uint64_t task = next++;
    const auto dataset = datasets[task];
    const task_header header{.task = task, .elements = dataset.size()};
    const auto sending = wall_clock::now();
    pool_->with_worker(worker, [&](connection& channel) {
      channel.send_parts({std::as_bytes(std::span(&header, 1)), std::as_bytes(dataset)},
                         deadline_clock::now() + options_.patience);
    });
    result.stages.serialize += seconds_since(sending);
    running[worker] = task;
    used[worker] = true;
  };

  for (std::size_t worker = 0; worker < pool_->size() && next < datasets.size(); ++worker)
    hand_out(worker);
  while (done < datasets.size()) {
    const auto deadline = deadline_clock::now() + options_.patience;
    const std::size_t worker = pool_->wait_for_message(deadline);
    const auto reply = pool_->with_worker(
        worker, [&](connection& channel) { return channel.receive_record<task_reply>(deadline); });
    check_reply(reply, running[worker], pool_->worker_name(worker));
    result.sums[reply.task] = reply.sum;
    result.stages.deserialize += reply.deserialize;
    result.stages.h2d += reply.h2d;
    result.stages.kernel += reply.kernel;
    result.stages.d2h += reply.d2h;
    running[worker].reset();
    ++done;
    if (next < datasets.size()) hand_out(worker);
  }

  result.workers_used = static_cast<std::size_t>(std::count(used.begin(), used.end(), true));
  if (result.workers_used > 0) {
    const double workers = static_cast<double>(result.workers_used);
    result.stages.deserialize /= workers;
    result.stages.h2d /= workers;
    result.stages.kernel /= workers;
    result.stages.d2h /= workers;
  }
  result.seconds = seconds_since(start);
  return result;
}

void task_pool::shutdown() {
  latch_.close_for_shutdown();
  pool_->shutdown_expecting_success(options_.patience);
}

}  // namespace handoff::patterns::independent_tasks
