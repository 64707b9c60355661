#pragma once
// The seed and cpu_pool variants: seed 000 example 1's multiprocessing.Pool.map over chunks, with
// spawned workers (never forked, so no CUDA state is inherited). Each worker prepares its chunk,
// adds it (seed_vector_add: on the device with its own context, fresh allocations and pageable
// copies; or on the worker's one CPU thread, which is cpu_pool) and sends c back by value over its
// connection, as pool.map pickles results. The coordinator hands out chunks as workers free up,
// receives each result into a fresh array of its own and, once all are in, concatenates them in
// chunk order (np.concatenate) into the caller's output.
//
// Stages: the workers' prep, h2d, kernel and d2h, summed over chunks; deserialize is the
// coordinator receiving result bytes, post the concatenation. Every wait has the patience as its
// deadline. A worker that dies mid-batch is worker_died naming it; a worker that reports a failure
// is chunk_failed. Either way the pool terminates its workers (Pool.terminate) before the error
// leaves run(), and takes no more batches (pool_terminated).

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/pool_prep/batch.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process/worker_pool.hpp"

namespace handoff::patterns::pool_prep {

struct map_pool_options {
  std::size_t workers = 4;
  compute_target target = compute_target::device;
  std::chrono::milliseconds patience = default_patience;
  std::string name = "pool-prep-map";  // workers are "<name>-<index>"
  // Test hook: the worker that gets this chunk never answers, so a test can kill it mid-batch.
  // The first round is dealt in order, so chunk k < workers goes to worker k.
  std::optional<std::size_t> stall_on_chunk = std::nullopt;
};

class map_pool {
 public:
  // Starts the workers and waits until each is ready (on the device: its context created). 0
  // workers is std::invalid_argument; a worker that cannot start is process_error naming it.
  explicit map_pool(const map_pool_options& options);
  ~map_pool();
  map_pool(const map_pool&) = delete;
  map_pool& operator=(const map_pool&) = delete;

  // out must hold work.total_elements floats (else std::invalid_argument).
  stage_times run(const batch& work, std::span<float> out);

  std::size_t size() const noexcept { return options_.workers; }
  bool terminated() const noexcept { return !pool_.has_value(); }
  pid_t worker_pid(std::size_t index) const;
  std::string worker_name(std::size_t index) const;

  // Closes the pool and waits for every worker to exit cleanly (worker_died if one does not).
  void shutdown();

 private:
  stage_times run_batch(const batch& work, std::span<float> out);
  void send_chunk(std::size_t worker, const batch& work, std::size_t chunk);
  void receive_result(std::size_t worker, const batch& work, stage_times& stages);
  transport::deadline_clock::time_point deadline() const {
    return transport::deadline_clock::now() + options_.patience;
  }

  map_pool_options options_;
  std::optional<transport::worker_pool> pool_;
  std::vector<std::size_t> assigned_;              // the chunk each worker holds, or no chunk
  std::vector<std::unique_ptr<float[]>> results_;  // by value, one fresh array per chunk
};

}  // namespace handoff::patterns::pool_prep
