// The producer of the slot variants: it copies each item into a free slot of the input ring and
// publishes the slot with the item's index as its tag, then copies each c out of the output ring
// in order. Only slot numbers and tags cross to the worker.
//
// slots fills and drains from one thread, never more items ahead than the output ring holds, so
// the worker always finds an output slot for what it takes and the two can never wait on each
// other. streamed fills from a second thread, so that copying the next item in overlaps copying
// the last result out.

#include <atomic>
#include <exception>
#include <thread>

#include "handoff/transport/streaming_copy.hpp"
#include "session_state.hpp"

namespace handoff::patterns::queued_worker {

using transport::peer_watch;

namespace {

// Into a slot the worker reads next, or out of one into a result: this thread never reads the
// copy again (streaming_copy.hpp). An empty item's span may hold a null pointer, which even a
// zero-byte memcpy may not be given.
//
// Each item is written straight into the slot the worker uploads it from, and each result read
// straight out of the slot the worker downloaded it into: no staging buffer on either side. The
// filler's copy is streamed's critical path (its floor is this one thread copying every a and b,
// and its serialize stage is that copy alone, never a wait), so the batch runs at the copy's
// rate, which stayed well under the one-thread copy ceiling while the copy kept one stream of
// source lines in flight; streaming_copy.cpp now keeps four (figures:
// docs/design/measured-along-the-way.md, "How fast one thread fills queued_worker's slots").
void copy_into_slot(std::byte* destination, const void* source, std::size_t bytes) {
  if (bytes > 0) transport::copy_streaming(destination, source, bytes);
}

void fill_item(session_state& state, const work_item& item, std::size_t index,
               const peer_watch& watch, double& seconds) {
  auto& ring = *state.input_ring;
  const std::size_t slot = ring.acquire_free(state.step_deadline(), watch);
  const auto start = wall_clock::now();
  auto* destination = ring.slot(slot).data();
  copy_into_slot(destination, item.a.data(), item.a.size_bytes());
  copy_into_slot(destination + item.a.size_bytes(), item.b.data(), item.b.size_bytes());
  seconds += seconds_since(start);
  ring.publish(slot, item.a.size_bytes() + item.b.size_bytes(), index);
}

void fill_sentinel(session_state& state, protocol::ending how, const peer_watch& watch) {
  auto& ring = *state.input_ring;
  ring.publish(ring.acquire_free(state.step_deadline(), watch), 0, protocol::sentinel_tag(how));
}

void drain_item(session_state& state, std::span<float> output, std::size_t index,
                const peer_watch& watch, double& seconds) {
  auto& ring = *state.output_ring;
  const auto filled = ring.acquire_filled(state.step_deadline(), watch);
  if (filled.tag != index || filled.used_bytes != output.size_bytes()) {
    throw protocol_violation("queued_worker: result " + std::to_string(index) + " from worker " +
                             state.worker->name() + " came tagged " + std::to_string(filled.tag) +
                             " with " + std::to_string(filled.used_bytes) + " bytes; expected " +
                             std::to_string(output.size_bytes()));
  }
  const auto start = wall_clock::now();
  // Streamed too: a batch's results are more than the caches hold, and nothing here reads them.
  copy_into_slot(reinterpret_cast<std::byte*>(output.data()), ring.slot(filled.index).data(),
                 output.size_bytes());
  seconds += seconds_since(start);
  ring.release(filled.index);
}

void fill_and_drain_in_turn(session_state& state, std::span<const work_item> items,
                            std::span<const std::span<float>> outputs, protocol::ending how,
                            stage_times& stages) {
  const auto watch = state.worker_watch();
  const std::size_t window = state.output_ring->slot_count();
  std::size_t drained = 0;
  for (std::size_t index = 0; index < items.size(); ++index) {
    for (; index - drained >= window; ++drained) {
      drain_item(state, outputs[drained], drained, watch, stages.deserialize);
    }
    fill_item(state, items[index], index, watch, stages.serialize);
  }
  fill_sentinel(state, how, watch);
  for (; drained < items.size(); ++drained) {
    drain_item(state, outputs[drained], drained, watch, stages.deserialize);
  }
}

// A filler thread that stops at the first failure on either side: the drainer watches the worker
// (worker_pool-style checks are not thread-safe, so only one thread makes them) and tells the
// filler through `abandon`.
class filler_thread {
 public:
  filler_thread(session_state& state, std::span<const work_item> items, protocol::ending how)
      : thread_([this, &state, items, how] { fill(state, items, how); }) {}
  filler_thread(const filler_thread&) = delete;
  filler_thread& operator=(const filler_thread&) = delete;
  ~filler_thread() {
    abandon_.store(true);
    if (thread_.joinable()) thread_.join();
  }

  // Runs in the drainer: rethrows the filler's failure.
  void rethrow_failure() const {
    if (failed_.load()) std::rethrow_exception(failure_);
  }
  // Waits for the filler to finish; its failure, if any, is rethrown. Returns its copy time.
  double finish() {
    thread_.join();
    rethrow_failure();
    return seconds_;
  }

 private:
  void fill(session_state& state, std::span<const work_item> items, protocol::ending how) {
    const peer_watch watch = [this] {
      if (abandon_.load()) throw transport::channel_closed("the drainer abandoned the batch");
    };
    try {
      for (std::size_t index = 0; index < items.size(); ++index) {
        fill_item(state, items[index], index, watch, seconds_);
      }
      fill_sentinel(state, how, watch);
    } catch (...) {
      failure_ = std::current_exception();
      failed_.store(true);
    }
  }

  std::atomic<bool> abandon_{false};
  std::atomic<bool> failed_{false};
  std::exception_ptr failure_;
  double seconds_ = 0;
  std::thread thread_;  // last: it starts once everything it uses exists
};

void fill_and_drain_at_once(session_state& state, std::span<const work_item> items,
                            std::span<const std::span<float>> outputs, protocol::ending how,
                            stage_times& stages) {
  filler_thread filler(state, items, how);
  const peer_watch watch = [&] {
    state.worker->check_alive();
    filler.rethrow_failure();
  };
  for (std::size_t index = 0; index < items.size(); ++index) {
    drain_item(state, outputs[index], index, watch, stages.deserialize);
  }
  stages.serialize += filler.finish();
}

// One batch with the given way of filling and draining the rings.
template <class FillAndDrain>
batch_result run_ring_batch(session_state& state, std::span<const work_item> items,
                            std::span<const std::span<float>> outputs, protocol::ending how,
                            FillAndDrain&& fill_and_drain) {
  batch_result result;
  const auto start = wall_clock::now();
  state.worker->control().send_record(protocol::batch_begin{.how = how}, state.step_deadline());
  fill_and_drain(state, items, outputs, how, result.stages);
  // Every result is in: the worker has passed the sentinel and reports, then (stop) exits.
  result.stages += state.receive_report(items.size()).stages;
  if (how == protocol::ending::stop) state.worker->join(state.setup.join_timeout);
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace

std::vector<int> create_slot_rings(session_state& state) {
  const auto& setup = state.setup;
  const std::uint64_t floats = setup.max_item_elements;
  state.input_ring = transport::shm_ring::create({.slot_count = setup.slot_count,
                                                  .slot_bytes = 2 * floats * sizeof(float),
                                                  .purpose = setup.purpose + "-inputs"});
  state.output_ring = transport::shm_ring::create({.slot_count = setup.slot_count,
                                                   .slot_bytes = floats * sizeof(float),
                                                   .purpose = setup.purpose + "-outputs"});
  return {state.input_ring->descriptor(), state.output_ring->descriptor()};
}

batch_result run_slots_batch(session_state& state, std::span<const work_item> items,
                             std::span<const std::span<float>> outputs, protocol::ending how) {
  return run_ring_batch(state, items, outputs, how, fill_and_drain_in_turn);
}

batch_result run_streamed_batch(session_state& state, std::span<const work_item> items,
                                std::span<const std::span<float>> outputs, protocol::ending how) {
  return run_ring_batch(state, items, outputs, how, fill_and_drain_at_once);
}

}  // namespace handoff::patterns::queued_worker
