#include "handoff/patterns/pool_prep/shared_gpu_pool.hpp"

#include <unistd.h>

#include <stdexcept>
#include <string>

#include "handoff/patterns/pool_prep/ring_worker.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/transport/channels/channel_errors.hpp"
#include "pool_session.hpp"
#include "protocol.hpp"
#include "replies.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {

using transport::connection;

namespace {

const shared_gpu_options& checked(const shared_gpu_options& options) {
  check_pool_size(options.workers, "shared_gpu");
  if (options.max_chunk_elements == 0 || options.slots_per_worker == 0 || options.streams == 0) {
    throw std::invalid_argument(
        "pool_prep shared_gpu: the chunk limit, the slots per worker and the streams must all be "
        "above 0");
  }
  return options;
}

}  // namespace

shared_gpu_pool::shared_gpu_pool(const shared_gpu_options& options) : options_(checked(options)) {
  // A slot holds one worker's piece of a chunk: its slice of a, then its slice of b.
  const std::size_t slot_bytes =
      2 * reference::array_split_max_chunk(options_.max_chunk_elements, options_.workers) *
      sizeof(float);
  for (std::size_t index = 0; index < options_.workers; ++index) {
    rings_.push_back(transport::shm_ring::create(
        {.slot_count = options_.slots_per_worker,
         .slot_bytes = slot_bytes,
         .purpose = options_.purpose + "-ring-" + std::to_string(index)}));
  }
  pool_.emplace(options_.purpose, options_.workers,
                transport::worker_launch{.role = std::string(ring_worker_role),
                                         .arguments = {std::to_string(options_.patience.count())}});
  for (std::size_t index = 0; index < options_.workers; ++index) {
    pool_->with_worker(index, [&](connection& channel) {
      channel.send_fd(rings_[index].descriptor(), deadline());
    });
  }
  for (std::size_t index = 0; index < options_.workers; ++index) {
    const auto ready = pool_->with_worker(index, [&](connection& channel) {
      return channel.receive_record<protocol::ready_record>(deadline());
    });
    check_ready(ready, pool_->worker_name(index), "could not attach its ring");
  }
  // The streamer creates the streams, and with them this process's CUDA context, before any
  // registration needs it.
  streamer_ = std::make_unique<chunk_streamer>(options_.target, options_.max_chunk_elements,
                                               options_.streams);
  if (options_.target == compute_target::device) {
    for (const auto& ring : rings_)
      registrations_.emplace_back(ring.slot_region());
  }
  in_flight_.resize(options_.workers);
}

shared_gpu_pool::~shared_gpu_pool() {
  if (streamer_) streamer_->quiesce();
  if (!pool_) return;
  try {
    pool_->shutdown(std::chrono::seconds(5));  // whatever is still running then is killed
  } catch (...) {
    // ~worker_pool kills and reaps whatever shutdown could not.
  }
}

pid_t shared_gpu_pool::worker_pid(std::size_t index) const {
  if (!pool_) throw pool_terminated("shared_gpu pool " + options_.purpose + " was terminated");
  return pool_->worker_pid(index);
}

std::string shared_gpu_pool::worker_name(std::size_t index) const {
  return options_.purpose + "-" + std::to_string(index);
}

void shared_gpu_pool::shutdown() {
  if (!pool_) return;
  auto pool = std::move(*pool_);
  pool_.reset();
  pool.shutdown_expecting_success(options_.patience);
}

void shared_gpu_pool::terminate() noexcept {
  streamer_->quiesce();  // no copy may still read a slot once its worker is gone
  for (auto& ring : rings_)
    ring.close();
  pool_.reset();  // kills and reaps every worker
  for (auto& slots : in_flight_)
    slots.clear();
}

stage_times shared_gpu_pool::run(const batch& work, std::span<float> out) {
  if (!pool_) {
    throw pool_terminated("shared_gpu pool " + options_.purpose +
                          " was terminated after a failed batch; start a new one");
  }
  check_batch(work, options_.max_chunk_elements);
  if (out.size() != work.total_elements) {
    throw std::invalid_argument("shared_gpu pool: the output holds " + std::to_string(out.size()) +
                                " floats for a batch of " + std::to_string(work.total_elements));
  }
  try {
    return run_batch(work, out);
  } catch (...) {
    terminate();
    throw;
  }
}

stage_times shared_gpu_pool::run_batch(const batch& work, std::span<float> out) {
  const std::size_t workers = options_.workers;
  streamer_->begin(out, work.chunks);
  chunks_in_batch_ = work.chunks;
  for (std::size_t worker = 0; worker < workers; ++worker) {
    const protocol::ring_request request{
        .total = work.total_elements,
        .chunks = work.chunks,
        .worker = worker,
        .workers = workers,
        .seed_a = work.seeds.a,
        .seed_b = work.seeds.b,
        .stall_chunk = options_.stall_on_chunk.value_or(protocol::no_chunk)};
    pool_->with_worker(worker,
                       [&](connection& channel) { channel.send_record(request, deadline()); });
  }
  std::vector<bool> replied(workers, false);
  double prep = 0;
  const transport::peer_watch watch = [&] { watch_workers(replied, prep); };
  for (std::size_t chunk = 0; chunk < work.chunks; ++chunk) {
    const auto extent = work.chunk(chunk);
    streamer_->begin_chunk(chunk);
    for (std::size_t worker = 0; worker < workers; ++worker) {
      release_read_slots(worker, chunk);
      const auto filled = rings_[worker].acquire_filled(deadline(), watch);
      in_flight_[worker].push_back({filled.index, chunk});
      const auto piece = reference::array_split_chunk(extent.count, workers, worker);
      if (filled.tag != chunk || filled.used_bytes != 2 * piece.count * sizeof(float)) {
        throw transport::channel_corrupted(
            "worker " + worker_name(worker) + " published chunk " + std::to_string(filled.tag) +
            " in " + std::to_string(filled.used_bytes) + " bytes; expected chunk " +
            std::to_string(chunk) + " in " + std::to_string(2 * piece.count * sizeof(float)));
      }
      const auto* floats = reinterpret_cast<const float*>(rings_[worker].slot(filled.index).data());
      streamer_->add_piece(chunk, extent.offset, piece.offset, std::span(floats, piece.count),
                           std::span(floats + piece.count, piece.count));
    }
    streamer_->end_chunk(chunk, extent.offset, extent.count);
  }
  stage_times stages;
  streamer_->finish(stages);
  release_all_slots();
  for (std::size_t worker = 0; worker < workers; ++worker) {
    if (!replied[worker]) take_reply(worker, prep);
  }
  stages.prep += prep;
  return stages;
}

void shared_gpu_pool::release_read_slots(std::size_t ring, std::size_t current_chunk) {
  // Only chunks before the current one have recorded when their inputs are read.
  const auto read = [&](const in_flight_slot& held) {
    return held.chunk < current_chunk && streamer_->inputs_read(held.chunk);
  };
  for (std::size_t index = 0; index < rings_.size(); ++index) {
    auto& slots = in_flight_[index];
    while (!slots.empty() && read(slots.front())) {
      rings_[index].release(slots.front().slot);
      slots.pop_front();
    }
  }
  // The worker needs a free slot to publish the piece about to be waited for. Every slot this
  // ring still has out belongs to an earlier chunk, already handed to the streamer.
  auto& slots = in_flight_[ring];
  while (slots.size() >= rings_[ring].slot_count()) {
    streamer_->wait_inputs_read(slots.front().chunk);
    rings_[ring].release(slots.front().slot);
    slots.pop_front();
  }
}

void shared_gpu_pool::release_all_slots() {
  for (std::size_t index = 0; index < rings_.size(); ++index) {
    for (const auto& held : in_flight_[index])
      rings_[index].release(held.slot);
    in_flight_[index].clear();
  }
}

// Runs while the coordinator waits for a chunk: a dead worker is worker_died, and a worker that
// has already answered (a failure, or its whole share published) is heard at once.
void shared_gpu_pool::watch_workers(std::vector<bool>& replied, double& prep) {
  pool_->check_alive();
  for (std::size_t worker = 0; worker < replied.size(); ++worker) {
    if (replied[worker] || !pool_->channel(worker).poll(std::chrono::milliseconds(0))) continue;
    replied[worker] = true;
    take_reply(worker, prep);
  }
}

void shared_gpu_pool::take_reply(std::size_t worker, double& prep) {
  const auto reply = pool_->with_worker(worker, [&](connection& channel) {
    return channel.receive_record<protocol::ring_reply>(deadline());
  });
  check_ring_reply(reply, chunks_in_batch_, worker_name(worker));
  prep += reply.prep;
}

}  // namespace handoff::patterns::pool_prep

// --- The shared_gpu row: the pool is the session (pool_session) --------------------------------

namespace handoff::patterns::pool_prep {

batch_session_ptr set_up_shared_gpu(const point& at, compute_target target) {
  return std::make_unique<pool_session<shared_gpu_pool>>(
      streamed_output(target), at,
      shared_gpu_options{.workers = at.workers,
                         .max_chunk_elements = at.buffer_elements(),
                         .target = target,
                         .purpose = "pool-prep-shared-" + std::to_string(::getpid())});
}

constinit const row shared_gpu_variant{
    .name = "shared_gpu",
    .description = "workers prepare chunks in shared pinned memory; one GPU owner streams them",
    .targets = device_or_host,
    .clock = clock_kind::wall,
    .cold = cold_kind::fresh_setup,
    .setup = set_up_shared_gpu,
    .floor = streamed_floor};

}  // namespace handoff::patterns::pool_prep
