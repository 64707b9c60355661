#include "handoff/patterns/postproc_split/summing_worker.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/shared_memory_segment.hpp"
#include "handoff/wall_clock.hpp"
#include "summing_protocol.hpp"

namespace handoff::patterns::postproc_split {

using transport::deadline_clock;

namespace {

// A pool can sit idle for a long time between a benchmark's runs; the coordinator's end (end of
// file on the channel) is what ends the wait, the deadline only bounds it.
constexpr auto idle_deadline = std::chrono::hours(24);
// Once a request's header has arrived, the rest of it must follow within this.
constexpr auto message_deadline = std::chrono::seconds(60);
constexpr std::size_t page_bytes = 4096;

[[noreturn]] void reject(const std::string& why) {
  throw transport::process_error("postproc_split worker: bad request: " + why);
}

// Touches every page once, so the first timed batch does not pay this process's page faults.
void map_every_page(std::span<const std::byte> bytes) {
  volatile std::byte sink{};
  for (std::size_t offset = 0; offset < bytes.size(); offset += page_bytes)
    sink = bytes[offset];
  (void)sink;
}

class summing_worker {
 public:
  summing_worker() : channel_(transport::coordinator_connection()) {}

  int serve() {
    while (true) {
      std::uint64_t length = 0;
      try {
        length = channel_.receive_length(deadline_clock::now() + idle_deadline, max_request_bytes);
      } catch (const transport::channel_closed&) {
        return 0;  // the coordinator closed the channel: the pool is shutting down
      }
      const auto deadline = deadline_clock::now() + message_deadline;
      if (length < sizeof(sum_request)) reject("a message of " + std::to_string(length) + " bytes");
      sum_request request;
      channel_.receive_body(std::as_writable_bytes(std::span(&request, 1)), deadline);
      if (request.magic != protocol_magic) reject("wrong magic");
      const std::uint64_t body = length - sizeof(sum_request);
      sum_reply reply{.kind = request.kind, .chunk_index = request.chunk_index};
      switch (request.kind) {
        case request_kind::attach:
          if (body != 0) reject("attach with a payload");
          attach(request, deadline);
          break;
        case request_kind::sum_payload:
          sum_payload(request, body, deadline, reply);
          break;
        case request_kind::sum_shared:
          if (body != 0) reject("sum_shared with a payload");
          sum_shared(request, reply);
          break;
        default:
          reject("unknown kind " + std::to_string(static_cast<std::uint32_t>(request.kind)));
      }
      channel_.send_record(reply, deadline);
    }
  }

 private:
  void attach(const sum_request& request, deadline_clock::time_point deadline) {
    const transport::unique_fd descriptor = channel_.receive_fd(deadline);
    segment_.reset();
    segment_.emplace(transport::shared_memory_segment::attach(descriptor.get(), request.count));
    map_every_page(segment_->bytes());
  }

  void sum_payload(const sum_request& request, std::uint64_t body,
                   deadline_clock::time_point deadline, sum_reply& reply) {
    if (request.count > max_payload_elements || body != request.count * sizeof(float)) {
      reject("a payload of " + std::to_string(body) + " bytes for " +
             std::to_string(request.count) + " floats");
    }
    payload_.resize(request.count);
    auto start = wall_clock::now();
    channel_.receive_body(std::as_writable_bytes(std::span(payload_)), deadline);
    reply.deserialize_seconds = seconds_since(start);
    start = wall_clock::now();
    reply.partial = sum_chunk(payload_);
    reply.post_seconds = seconds_since(start);
  }

  void sum_shared(const sum_request& request, sum_reply& reply) {
    if (request.count == 0) return;  // an empty chunk needs no segment
    if (!segment_) reject("sum_shared before attach");
    const auto floats = segment_->bytes().size() / sizeof(float);
    if (request.offset > floats || request.count > floats - request.offset) {
      reject("range [" + std::to_string(request.offset) + ", +" + std::to_string(request.count) +
             ") outside a segment of " + std::to_string(floats) + " floats");
    }
    const std::span values(reinterpret_cast<const float*>(segment_->bytes().data()), floats);
    const auto start = wall_clock::now();
    reply.partial = sum_chunk(values.subspan(request.offset, request.count));
    reply.post_seconds = seconds_since(start);
  }

  transport::connection channel_;
  std::optional<transport::shared_memory_segment> segment_;
  std::vector<float> payload_;
};

}  // namespace

int run_summing_worker(std::span<const std::string>) {
  return summing_worker().serve();
}

}  // namespace handoff::patterns::postproc_split
