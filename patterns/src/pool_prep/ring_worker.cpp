#include "handoff/patterns/pool_prep/ring_worker.hpp"

#include <sys/prctl.h>

#include <chrono>
#include <csignal>
#include <optional>
#include <stdexcept>

#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/wall_clock.hpp"
#include "protocol.hpp"

namespace handoff::patterns::pool_prep {

using transport::deadline_clock;

namespace {

class ring_worker {
 public:
  ring_worker(transport::connection& channel, std::chrono::milliseconds patience)
      : channel_(channel), patience_(patience), watch_(protocol::coordinator_watch()) {}

  // Attaches the ring the coordinator sends, and says whether that worked.
  bool start() {
    protocol::ready_record ready;
    try {
      descriptor_ = channel_.receive_fd(deadline());
      ring_.emplace(transport::shm_ring::attach(descriptor_.get()));
      ready.ok = 1;
    } catch (const std::exception& error) {
      ready.error.set(error.what());
    }
    channel_.send_record(ready, deadline());
    return ready.ok != 0;
  }

  protocol::ring_reply serve(const protocol::ring_request& request) {
    protocol::ring_reply reply;
    try {
      if (request.worker >= request.workers) {
        throw std::invalid_argument("a request for piece " + std::to_string(request.worker) +
                                    " of " + std::to_string(request.workers));
      }
      for (std::uint64_t chunk = 0; chunk < request.chunks; ++chunk) {
        if (chunk == request.stall_chunk && chunk % request.workers == request.worker) {
          protocol::stall_until_killed();
        }
        prepare(request, chunk, reply);
      }
      reply.ok = 1;
    } catch (const std::exception& error) {
      reply.error.set(error.what());
    }
    return reply;
  }

 private:
  void prepare(const protocol::ring_request& request, std::uint64_t chunk,
               protocol::ring_reply& reply) {
    const auto extent = reference::array_split_chunk(request.total, request.chunks, chunk);
    const auto piece = reference::array_split_chunk(extent.count, request.workers, request.worker);
    const std::size_t bytes = 2 * piece.count * sizeof(float);
    if (bytes > ring_->slot_bytes()) {
      throw std::invalid_argument("piece " + std::to_string(request.worker) + " of chunk " +
                                  std::to_string(chunk) + " needs " + std::to_string(bytes) +
                                  " bytes; a slot holds " + std::to_string(ring_->slot_bytes()));
    }
    const std::size_t slot = ring_->acquire_free(deadline(), watch_);
    auto* floats = reinterpret_cast<float*>(ring_->slot(slot).data());
    const auto start = wall_clock::now();
    reference::prepare_vector_add_chunk(
        {.a = request.seed_a, .b = request.seed_b}, extent.offset + piece.offset,
        std::span(floats, piece.count), std::span(floats + piece.count, piece.count));
    reply.prep += seconds_since(start);
    ring_->publish(slot, bytes, chunk);
    ++reply.chunks_prepared;
  }

  deadline_clock::time_point deadline() const { return deadline_clock::now() + patience_; }

  transport::connection& channel_;
  std::chrono::milliseconds patience_;
  transport::peer_watch watch_;
  transport::unique_fd descriptor_;
  std::optional<transport::shm_ring> ring_;
};

}  // namespace

int run_ring_worker(std::span<const std::string> arguments) {
  if (arguments.size() != 1) {
    throw std::invalid_argument("pool_prep ring worker: expected <patience ms>");
  }
  auto channel = transport::coordinator_connection();
  ring_worker worker(channel, protocol::parse_patience(arguments[0]));
  if (!worker.start()) return 1;
  while (true) {
    protocol::ring_request request;
    try {
      request = channel.receive_record<protocol::ring_request>(deadline_clock::now() +
                                                               protocol::worker_idle_limit);
    } catch (const transport::channel_closed&) {
      return 0;  // the coordinator closed the pool
    }
    const auto reply = worker.serve(request);
    channel.send_record(reply, deadline_clock::now() + protocol::worker_idle_limit);
  }
}

}  // namespace handoff::patterns::pool_prep
