#include "handoff/patterns/pool_prep/map_pool.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/wall_clock.hpp"
#include "protocol.hpp"
#include "replies.hpp"

namespace handoff::patterns::pool_prep {

using transport::channel_corrupted;
using transport::connection;

namespace {

constexpr std::size_t idle = protocol::no_chunk;

transport::worker_launch map_launch(const map_pool_options& options) {
  check_pool_size(options.workers, "map pool");
  return {.role = std::string(map_worker_role),
          .arguments = {std::string(compute_target_name(options.target)),
                        std::to_string(options.patience.count())}};
}

}  // namespace

map_pool::map_pool(const map_pool_options& options)
    : options_(options),
      pool_(std::in_place, options.name, options.workers, map_launch(options)),
      assigned_(options.workers, idle) {
  for (std::size_t index = 0; index < pool_->size(); ++index) {
    const auto ready = pool_->with_worker(index, [&](connection& channel) {
      return channel.receive_record<protocol::ready_record>(deadline());
    });
    check_ready(ready, pool_->worker_name(index), "could not start");
  }
}

map_pool::~map_pool() {
  if (!pool_) return;
  try {
    pool_->shutdown(std::chrono::seconds(5));  // whatever is still running then is killed
  } catch (...) {
    // ~worker_pool kills and reaps whatever shutdown could not.
  }
}

pid_t map_pool::worker_pid(std::size_t index) const {
  if (!pool_) throw pool_terminated("map pool " + options_.name + " was terminated");
  return pool_->worker_pid(index);
}

std::string map_pool::worker_name(std::size_t index) const {
  return options_.name + "-" + std::to_string(index);
}

void map_pool::shutdown() {
  if (!pool_) return;
  auto pool = std::move(*pool_);
  pool_.reset();
  pool.shutdown_expecting_success(options_.patience);
}

stage_times map_pool::run(const batch& work, std::span<float> out) {
  if (!pool_) {
    throw pool_terminated("map pool " + options_.name +
                          " was terminated after a failed batch; start a new one");
  }
  check_batch(work);
  if (out.size() != work.total_elements) {
    throw std::invalid_argument("map pool: the output holds " + std::to_string(out.size()) +
                                " floats for a batch of " + std::to_string(work.total_elements));
  }
  try {
    return run_batch(work, out);
  } catch (...) {
    pool_.reset();  // Pool.terminate(): kills and reaps every worker before the error leaves
    throw;
  }
}

stage_times map_pool::run_batch(const batch& work, std::span<float> out) {
  stage_times stages;
  results_.clear();
  results_.resize(work.chunks);
  std::fill(assigned_.begin(), assigned_.end(), idle);
  std::size_t next = 0;
  for (std::size_t worker = 0; worker < pool_->size() && next < work.chunks; ++worker)
    send_chunk(worker, work, next++);
  for (std::size_t received = 0; received < work.chunks; ++received) {
    const std::size_t worker = pool_->wait_for_message(deadline());
    receive_result(worker, work, stages);
    if (next < work.chunks) send_chunk(worker, work, next++);
  }
  const auto start = wall_clock::now();
  for (std::size_t chunk = 0; chunk < work.chunks; ++chunk) {
    const auto extent = work.chunk(chunk);
    if (extent.count > 0) {
      std::memcpy(out.data() + extent.offset, results_[chunk].get(), extent.count * sizeof(float));
    }
  }
  stages.post += seconds_since(start);
  return stages;
}

void map_pool::send_chunk(std::size_t worker, const batch& work, std::size_t chunk) {
  const auto extent = work.chunk(chunk);
  const protocol::map_request request{.chunk = chunk,
                                      .offset = extent.offset,
                                      .count = extent.count,
                                      .seed_a = work.seeds.a,
                                      .seed_b = work.seeds.b,
                                      .stall = options_.stall_on_chunk == chunk ? 1U : 0U};
  pool_->with_worker(worker,
                     [&](connection& channel) { channel.send_record(request, deadline()); });
  assigned_[worker] = chunk;
}

void map_pool::receive_result(std::size_t worker, const batch& work, stage_times& stages) {
  const std::string name = pool_->worker_name(worker);
  const std::size_t chunk = assigned_[worker];
  if (chunk == idle) {
    // Waiting for a message also wakes on a channel that closed: reading it turns the end of file
    // of a worker that died while idle into worker_died, with how it ended.
    pool_->with_worker(worker, [&](connection& channel) {
      channel.receive_length(deadline(), std::numeric_limits<std::uint64_t>::max());
    });
    throw channel_corrupted("worker " + name + " sent a result it was never asked for");
  }
  const auto extent = work.chunk(chunk);
  const std::uint64_t payload = extent.count * sizeof(float);
  pool_->with_worker(worker, [&](connection& channel) {
    const std::uint64_t length =
        channel.receive_length(deadline(), sizeof(protocol::map_reply_header) + payload);
    check_map_reply_length(length, name);
    protocol::map_reply_header header;
    channel.receive_body(std::as_writable_bytes(std::span(&header, 1)), deadline());
    check_map_reply(header, length, chunk, extent.count, name);
    const auto start = wall_clock::now();
    results_[chunk] = std::make_unique_for_overwrite<float[]>(extent.count);
    channel.receive_body(std::as_writable_bytes(std::span(results_[chunk].get(), extent.count)),
                         deadline());
    stages.deserialize += seconds_since(start);
    stages.prep += header.prep;
    stages.h2d += header.h2d;
    stages.kernel += header.kernel;
    stages.d2h += header.d2h;
  });
  assigned_[worker] = idle;
}

}  // namespace handoff::patterns::pool_prep
