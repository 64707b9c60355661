#pragma once
// The seed's multiprocessing.Pool for pool.map(postprocess, chunks): spawned summing workers, each
// on its own connection. Chunks are handed out in order to the least busy worker (pool.map's
// chunksize is 1 for ten chunks on four workers), and each reply lands in its chunk's slot, so the
// partial sums come back in chunk order whatever order the workers finish in.
//
// Sent by value, a worker has one chunk at a time: a second payload would block the coordinator on
// a worker still summing, as Pool's feeder does. Read from shared memory, a request is a few bytes,
// so each worker gets its next chunk queued while it sums the current one, and never waits a round
// trip for work.
//
// Every wait is bounded by the patience; a worker that dies mid-batch is worker_died naming it,
// found by the end of file on its channel or by its exit status.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process/batch_latch.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::patterns::postproc_split {

class summing_pool {
 public:
  // Starts workers processes named "<name>-<index>"; 0 workers is std::invalid_argument.
  summing_pool(std::size_t workers, std::chrono::milliseconds patience,
               const std::string& name = "postproc_split");

  std::size_t size() const noexcept { return workers_.size(); }
  const std::string& worker_name(std::size_t index) const { return workers_.worker_name(index); }
  pid_t worker_pid(std::size_t index) const { return workers_.worker_pid(index); }

  // Hands every worker the segment's descriptor and waits until each has mapped it.
  void attach(const transport::shared_memory_segment& segment);

  // The seed's way: each chunk of values travels to its worker by value, inside the request.
  // Stages: serialize (the coordinator's sends), deserialize and post (the workers').
  std::vector<double> sum_by_value(std::span<const float> values, std::span<const chunk> chunks,
                                   stage_times& stages);

  // Each chunk is read by its worker from the attached segment (a float array); only the offsets
  // travel. await_chunk(k), if given, is called before chunk k is handed out and returns once the
  // chunk's data is in the segment: the overlapped variant waits for its copy there.
  using chunk_gate = std::function<void(std::size_t chunk_index)>;
  static constexpr std::size_t queued_shared_requests = 2;
  std::vector<double> sum_in_segment(std::span<const chunk> chunks, stage_times& stages,
                                     const chunk_gate& await_chunk = {});

  // Closes every channel (the workers' cue to exit) and waits for them; a worker that does not exit
  // cleanly is worker_died. The pool is empty afterwards.
  void shutdown();

 private:
  template <class Send>
  std::vector<double> dispatch(std::span<const chunk> chunks, stage_times& stages, Send&& send,
                               const chunk_gate& await_chunk, std::size_t requests_per_worker);
  transport::deadline_clock::time_point deadline() const {
    return transport::deadline_clock::now() + patience_;
  }

  std::chrono::milliseconds patience_;
  transport::worker_pool workers_;
  transport::batch_latch latch_;
  std::size_t attached_floats_ = 0;
};

}  // namespace handoff::patterns::postproc_split
