#include "handoff/patterns/postproc_split/summing_pool.hpp"

#include <deque>
#include <optional>
#include <stdexcept>

#include "handoff/patterns/postproc_split/summing_worker.hpp"
#include "handoff/wall_clock.hpp"
#include "sum_replies.hpp"
#include "summing_protocol.hpp"

namespace handoff::patterns::postproc_split {

using transport::connection;

namespace {

std::size_t checked_worker_count(std::size_t workers) {
  if (workers == 0) throw std::invalid_argument("summing_pool: a pool needs at least 1 worker");
  return workers;
}

void check_chunks_within(std::span<const chunk> chunks, std::size_t floats, const char* where) {
  for (const auto& piece : chunks) {
    if (piece.offset > floats || piece.count > floats - piece.offset) {
      throw std::invalid_argument(std::string(where) + ": chunk [" + std::to_string(piece.offset) +
                                  ", +" + std::to_string(piece.count) + ") outside " +
                                  std::to_string(floats) + " floats");
    }
  }
}

std::span<const std::byte> bytes_of(const sum_request& request) {
  return std::as_bytes(std::span(&request, 1));
}

}  // namespace

summing_pool::summing_pool(std::size_t workers, std::chrono::milliseconds patience,
                           const std::string& name)
    : patience_(patience),
      workers_(name, checked_worker_count(workers), {.role = summing_worker_role}),
      latch_(name) {}

void summing_pool::attach(const transport::shared_memory_segment& segment) {
  const sum_request request{.kind = request_kind::attach, .count = segment.bytes().size()};
  for (std::size_t index = 0; index < size(); ++index) {
    workers_.with_worker(index, [&](connection& channel) {
      channel.send(bytes_of(request), deadline());
      channel.send_fd(segment.descriptor(), deadline());
    });
  }
  for (std::size_t index = 0; index < size(); ++index) {
    const auto reply = workers_.with_worker(
        index, [&](connection& channel) { return channel.receive_record<sum_reply>(deadline()); });
    check_attach_reply(reply, worker_name(index));
  }
  attached_floats_ = segment.bytes().size() / sizeof(float);
}

// Hands chunks out in order, each to the worker with the fewest requests in flight, as long as
// that is under requests_per_worker; a worker answers its requests in the order it got them.
template <class Send>
std::vector<double> summing_pool::dispatch(std::span<const chunk> chunks, stage_times& stages,
                                           Send&& send, const chunk_gate& await_chunk,
                                           std::size_t requests_per_worker) {
  std::vector<double> partials(chunks.size(), 0.0);
  std::vector<std::deque<std::size_t>> in_flight(size());
  const auto least_busy = [&] {
    std::size_t best = 0;
    for (std::size_t index = 1; index < in_flight.size(); ++index) {
      if (in_flight[index].size() < in_flight[best].size()) best = index;
    }
    return best;
  };
  std::size_t next = 0;
  std::size_t outstanding = 0;
  while (next < chunks.size() || outstanding > 0) {
    if (next < chunks.size()) {
      const std::size_t worker = least_busy();
      if (in_flight[worker].size() < requests_per_worker) {
        if (await_chunk) await_chunk(next);
        const auto start = wall_clock::now();
        workers_.with_worker(worker,
                             [&](connection& channel) { send(channel, next, chunks[next]); });
        stages.serialize += seconds_since(start);
        in_flight[worker].push_back(next++);
        ++outstanding;
        continue;
      }
    }
    std::vector<std::size_t> owing;
    for (std::size_t index = 0; index < in_flight.size(); ++index) {
      if (!in_flight[index].empty()) owing.push_back(index);
    }
    const std::size_t worker = workers_.wait_for_message(deadline(), owing);
    const auto reply = workers_.with_worker(
        worker, [&](connection& channel) { return channel.receive_record<sum_reply>(deadline()); });
    check_sum_reply(
        reply, in_flight[worker].empty() ? std::nullopt : std::optional(in_flight[worker].front()),
        worker_name(worker));
    partials[reply.chunk_index] = reply.partial;
    stages.deserialize += reply.deserialize_seconds;
    stages.post += reply.post_seconds;
    in_flight[worker].pop_front();
    --outstanding;
  }
  return partials;
}

std::vector<double> summing_pool::sum_by_value(std::span<const float> values,
                                               std::span<const chunk> chunks, stage_times& stages) {
  check_chunks_within(chunks, values.size(), "summing_pool::sum_by_value");
  for (const auto& piece : chunks) {
    if (piece.count > max_payload_elements) {
      throw std::invalid_argument("summing_pool::sum_by_value: a chunk of " +
                                  std::to_string(piece.count) + " floats is over the " +
                                  std::to_string(max_payload_elements) + " a message may carry");
    }
  }
  const auto send = [&](connection& channel, std::size_t index, const chunk& piece) {
    const sum_request request{.kind = request_kind::sum_payload,
                              .chunk_index = index,
                              .offset = piece.offset,
                              .count = piece.count};
    channel.send_parts(
        {bytes_of(request), std::as_bytes(values.subspan(piece.offset, piece.count))}, deadline());
  };
  return latch_.run([&] { return dispatch(chunks, stages, send, {}, 1); });
}

std::vector<double> summing_pool::sum_in_segment(std::span<const chunk> chunks, stage_times& stages,
                                                 const chunk_gate& await_chunk) {
  // Empty chunks need no segment; any other must lie inside the attached one.
  for (const auto& piece : chunks) {
    if (piece.count > 0) check_chunks_within({&piece, 1}, attached_floats_, "sum_in_segment");
  }
  const auto send = [&](connection& channel, std::size_t index, const chunk& piece) {
    const sum_request request{.kind = request_kind::sum_shared,
                              .chunk_index = index,
                              .offset = piece.offset,
                              .count = piece.count};
    channel.send(bytes_of(request), deadline());
  };
  return latch_.run(
      [&] { return dispatch(chunks, stages, send, await_chunk, queued_shared_requests); });
}

void summing_pool::shutdown() {
  latch_.close_for_shutdown();
  workers_.shutdown_expecting_success(patience_);
}

}  // namespace handoff::patterns::postproc_split
