#pragma once
// queued_worker (seed 000, example 2): a producer hands (a, b) pairs to one GPU worker process
// through a queue, the worker computes c = a + b and hands c back, in order.
//
//   seed      the recipe: the payload travels by value through a joinable queue (a pipe), and the
//             worker allocates device memory and copies pageable memory for every item. Both of
//             the recipe's deadlocks are fixed here, by name (recipe_fixes).
//   slots     the producer copies each item into a ring of shared-memory slots that the worker
//             has page-locked (cudaHostRegister), and only slot numbers cross between the
//             processes; c comes back through a second ring. Device buffers are allocated once.
//   streamed  slots, with the worker overlapping item k+1's upload with item k's kernel and item
//             k-1's download (one stream per lane, events to order), and a producer that fills
//             and drains the rings from two threads.
//
// Every blocking step has a deadline; a worker that dies is worker_died, naming it, and the
// session is then broken. Nothing outlives a session: the worker is reaped, and every segment was
// unlinked as soon as it was mapped.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/run_result.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns::queued_worker {

// The recipe's two deadlocks, each with its fix. Both fixes are on; a test turns one off to show
// the deadlock it prevents (with deadlines, so the demonstration itself cannot hang). They concern
// the seed variant's queues; the slot variants have no task_done and always drain before joining.
struct recipe_fixes {
  // Fix 1: the worker calls task_done for the sentinel as well as for every item. The recipe does
  // not, so data_queue.join() waits for a task that is never finished.
  bool task_done_for_sentinel = true;
  // Fix 2: the producer drains the results before it joins the data queue and the worker. The
  // recipe joins first, but a worker cannot exit while results it has put are still in a pipe that
  // nobody reads (4 MB results do not fit in it), so the join never returns.
  bool drain_results_before_join = true;
};

struct worker_setup {
  // The variant's name in the pattern's table (variants.hpp), where everything it does differently
  // (its channels, its producer, its worker loop) is found; an unknown name is
  // std::invalid_argument.
  std::string variant = "seed";
  compute_target target = compute_target::device;
  std::size_t max_item_elements = std::size_t{1} << 20;  // the largest item a batch may carry
  std::size_t slot_count = 4;                            // slots and streamed: slots per ring
  recipe_fixes fixes = {};
  std::chrono::milliseconds patience{60000};      // per blocking step of a batch
  std::chrono::milliseconds join_timeout{60000};  // data_queue.join() and the worker's exit
  // Names the worker's channels (and so their shared-memory segments) and the worker itself.
  std::string purpose = "queued-worker";
  // Fault injection for the conformance tests: after this many items of a batch (0: never) the
  // worker stops working, as a hung or crashing worker would, until it is killed.
  std::size_t pause_after_items = 0;
};

struct work_item {
  std::span<const float> a;
  std::span<const float> b;
};

// seconds: the producer's wall clock, from the batch's first step to its last (the worker's
// session times itself); stages: the producer's stages plus those the worker reported.
using batch_result = run_result;

// The worker reported a failure of its own (a CUDA error, a message it rejected).
class worker_failed : public transport::process_error {
 public:
  worker_failed(std::string message, std::string worker)
      : transport::process_error(std::move(message)), worker_(std::move(worker)) {}
  const std::string& worker() const noexcept { return worker_; }

 private:
  std::string worker_;
};

// The worker broke the protocol: a result out of order or of the wrong size.
class protocol_violation : public transport::process_error {
 public:
  using transport::process_error::process_error;
};

// Throws std::invalid_argument, before anything is sent, for: outputs not one per item, a and b
// (or the output) of different lengths, an item over max_item_elements, or a setup that cannot
// work (no elements, too few slots, recipe_fixes turned off for a slot variant).
void validate_setup(const worker_setup& setup);
void validate_batch(const worker_setup& setup, std::span<const work_item> items,
                    std::span<const std::span<float>> outputs);

struct session_state;

// One producer and its GPU worker process, up and ready for batches (warm).
class worker_session {
 public:
  // Creates the channels, spawns the worker and waits until it has its context (and, for the slot
  // variants, its registered rings and device buffers).
  explicit worker_session(const worker_setup& setup);
  worker_session(worker_session&&) noexcept;
  worker_session& operator=(worker_session&&) noexcept;
  // Stops a healthy worker the recipe's way; kills and reaps a broken one.
  ~worker_session();

  // One batch: every item to the worker, every c into outputs[k], in order. The worker stays up.
  batch_result run_batch(std::span<const work_item> items,
                         std::span<const std::span<float>> outputs);
  // The recipe's whole run after the spawn: the batch, the stop sentinel, and the joins of the data
  // queue and of the worker. The session is finished afterwards.
  batch_result run_last_batch(std::span<const work_item> items,
                              std::span<const std::span<float>> outputs);
  // run_last_batch with no items.
  void shutdown();

  const std::string& worker_name() const;
  pid_t worker_pid() const;
  double startup_seconds() const;  // from before the spawn until the worker was ready
  bool finished() const;           // after run_last_batch, or once broken

 private:
  std::unique_ptr<session_state> state_;
};

// Cold: spawn the worker and create its context, run one batch, stop and join the worker, all
// timed by the wall clock (what a script run once pays).
batch_result run_once(const worker_setup& setup, std::span<const work_item> items,
                      std::span<const std::span<float>> outputs);

}  // namespace handoff::patterns::queued_worker
