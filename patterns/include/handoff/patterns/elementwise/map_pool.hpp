#pragma once
// cpu_map: concurrent.futures.ProcessPoolExecutor().map(f, inputs) with its default chunksize of
// 1, in C++. A pool of spawned worker processes (one per core, at most 4); the coordinator sends
// every item as a message of its own and receives every result as a message of its own:
//   square, neg_b_over_a   one item = one element (x, or the pair (a, b)), one result = one float;
//   affine                 one item = one column x_j of X, one result = the column y_j = W x_j + b.
//                          W and b reach each worker once per batch, in a message before the
//                          columns, as a pool initializer would hand them over; re-sending W with
//                          every column (what pickling (x, W, b) tuples does) would cost n times
//                          W's bytes per batch.
// Each worker keeps two items in flight, as the executor keeps its call queue fed, so it never
// idles for a round trip. It is meant to be slow: the price of a dispatch per element.
//
// Stages of one batch (map_batch_stats): serialize = the coordinator handing tasks to the
// channels, deserialize = taking results off them and scattering them into the output, kernel =
// the workers' arithmetic as they time it themselves, wait = the remainder, the coordinator
// blocked on its workers.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process/batch_latch.hpp"
#include "handoff/transport/process/worker_pool.hpp"

namespace handoff::patterns::elementwise {

// The role the worker programs play; register it (HANDOFF_WORKER_ROLE) in every executable that
// uses a map_pool, with run_map_worker as its entry.
inline constexpr const char* map_worker_role = "elementwise_map_worker";
int run_map_worker(std::span<const std::string> arguments);

// The largest affine order a map worker accepts: W arrives as one message of n * n floats.
inline constexpr std::size_t max_map_order = 1024;

std::size_t default_map_workers();  // one per core, at most 4

struct map_batch_stats {
  stage_times stages;
  std::uint64_t messages = 0;  // both directions, the per-batch W and b included
  std::uint64_t bytes = 0;     // every byte written to the channels, both directions
};

// The bytes one batch writes to the channels (map_batch_stats::bytes) for a workload of size
// elements (or order n) on workers workers: what cpu_map's floor prices.
std::uint64_t map_batch_bytes(extended_workload workload, std::size_t size, std::size_t workers);

class map_pool {
 public:
  // Spawns the workers; 0 workers is std::invalid_argument. Every wait on a worker gives up after
  // wait_timeout with deadline_exceeded; a worker that dies is worker_died, naming it.
  explicit map_pool(std::size_t workers = default_map_workers(),
                    std::chrono::milliseconds wait_timeout = std::chrono::seconds(30));

  // One batch: out receives f applied to every item, in order. out must hold
  // problem.output_count() values (std::invalid_argument otherwise); an affine order above
  // max_map_order is std::invalid_argument.
  map_batch_stats run(const extended_problem& problem, std::span<float> out);

  // Closes the channels and waits for every worker to exit cleanly (worker_died if one does not).
  void shutdown();

  std::size_t size() const noexcept { return pool_.size(); }
  const std::string& worker_name(std::size_t index) const { return pool_.worker_name(index); }
  pid_t worker_pid(std::size_t index) const { return pool_.worker_pid(index); }

 private:
  map_batch_stats run_batch(const extended_problem& problem, std::span<float> out);

  transport::worker_pool pool_;
  transport::batch_latch latch_{"map"};
  std::chrono::milliseconds wait_timeout_;
};

}  // namespace handoff::patterns::elementwise
