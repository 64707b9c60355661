#pragma once
// The shared_gpu variant: the pool prepares, one process owns the GPU. Each spawned worker has its
// own shared-memory ring (one producer, one consumer). For every chunk, in order, each worker
// prepares its piece (piece w of the pool's workers, cut like np.array_split) into a free slot and
// publishes it; so all workers prepare every chunk together, and a batch of 10 chunks keeps 4 or 8
// workers equally busy instead of leaving some idle in the last round. The coordinator page-locks
// every ring's slots once (cudaHostRegister), gathers each chunk's pieces and streams the chunk
// through a chunk_streamer (async h2d of the pieces, the kernel, async d2h into the caller's
// output, on several streams), and gives each slot back once the chunk's h2d has completed. So
// preparation, both copy directions and the kernels all overlap, and no chunk is copied between
// processes.
//
// On the host stand-in the coordinator adds straight out of the slots on the CPU: the same rings,
// workers, ordering and failure handling, with no CUDA.
//
// Stages: prep (the workers'), and the streamer's h2d, kernel and d2h. A worker that dies is
// worker_died naming it, noticed while the coordinator waits; one that reports a failure is
// chunk_failed. Either way the workers are killed and the rings closed before the error leaves
// run(), and the pool takes no more batches (pool_terminated). Ring segments are sealed anonymous
// memory files with no name, so nothing is ever left in /dev/shm.

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "handoff/host_registration.hpp"
#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/pool_prep/batch.hpp"
#include "handoff/patterns/pool_prep/chunk_streamer.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/transport/process/worker_pool.hpp"

namespace handoff::patterns::pool_prep {

struct shared_gpu_options {
  std::size_t workers = 4;
  std::size_t max_chunk_elements = std::size_t{1} << 20;
  compute_target target = compute_target::device;
  // Per ring, each a worker's piece of one chunk: one being prepared, one in flight to the
  // device, one waiting.
  std::size_t slots_per_worker = 3;
  std::size_t streams = 3;
  std::chrono::milliseconds patience = default_patience;
  // Names the workers ("<purpose>-<index>") and the rings' shared-memory segments.
  std::string purpose = "pool-prep-shared";
  // Test hook: worker k % workers stops at chunk k and never answers, so a test can kill it
  // mid-batch.
  std::optional<std::size_t> stall_on_chunk = std::nullopt;
};

class shared_gpu_pool {
 public:
  // 0 workers, 0 slots or a chunk limit of 0 is std::invalid_argument.
  explicit shared_gpu_pool(const shared_gpu_options& options);
  ~shared_gpu_pool();
  shared_gpu_pool(const shared_gpu_pool&) = delete;
  shared_gpu_pool& operator=(const shared_gpu_pool&) = delete;

  // out must hold work.total_elements floats (else std::invalid_argument); on the device it should
  // be page-locked (a pinned_buffer) for the d2h copies to be asynchronous. Chunks longer than
  // max_chunk_elements are std::invalid_argument.
  stage_times run(const batch& work, std::span<float> out);

  std::size_t size() const noexcept { return options_.workers; }
  bool terminated() const noexcept { return !pool_.has_value(); }
  pid_t worker_pid(std::size_t index) const;
  std::string worker_name(std::size_t index) const;

  // Closes the pool and waits for every worker to exit cleanly (worker_died if one does not).
  void shutdown();

 private:
  struct in_flight_slot {
    std::size_t slot;
    std::size_t chunk;
  };
  stage_times run_batch(const batch& work, std::span<float> out);
  // Gives back every slot whose h2d has completed, then waits until `ring` has a free slot.
  void release_read_slots(std::size_t ring, std::size_t current_chunk);
  void release_all_slots();
  void watch_workers(std::vector<bool>& replied, double& prep);
  void take_reply(std::size_t worker, double& prep);
  void terminate() noexcept;
  transport::deadline_clock::time_point deadline() const {
    return transport::deadline_clock::now() + options_.patience;
  }

  shared_gpu_options options_;
  // Destroyed bottom up: the workers first, then the streams (after their copies finished), then
  // the registrations, then the rings' mappings.
  std::vector<transport::shm_ring> rings_;
  std::vector<host_registration> registrations_;
  std::unique_ptr<chunk_streamer> streamer_;
  std::optional<transport::worker_pool> pool_;
  std::vector<std::deque<in_flight_slot>> in_flight_;  // per ring, oldest first
  std::uint64_t chunks_in_batch_ = 0;
};

}  // namespace handoff::patterns::pool_prep
