#pragma once
// The overlapped variant's copy back: every chunk of c is queued for copying at once, and each can
// be awaited on its own, so the pool starts summing chunk k while chunk k + 1 is still on its way.
// On the device, the copies (asynchronous, into page-locked memory) go round robin over a few
// streams, with an event after each chunk: each copy has a fixed cost on its copy engine, and one
// stream paid it between every two chunks (see copy_streams). The host stand-in has a copier thread
// that copies chunk after chunk and publishes how many are done.

#include <atomic>
#include <cstddef>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/postproc_split/computed_result.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::postproc_split {

class chunked_copy_back {
 public:
  // destination must have c's length and, for the device, be page-locked for the copies to be
  // asynchronous; chunks must lie within c (else std::invalid_argument). window: how many chunks'
  // copies are queued ahead of the one awaited (at least 1).
  chunked_copy_back(computed_result c, std::span<float> destination, std::vector<chunk> chunks,
                    std::size_t window = 8);

  // Streams the device's copies take turns on. A chunk of a few MiB reached about 36 GB/s alone
  // against 55 for the whole of c on an H200: with two streams, one copy's fixed cost overlaps
  // the other's transfer.
  static constexpr std::size_t copy_streams = 2;
  static_assert(copy_streams >= 1);
  chunked_copy_back(const chunked_copy_back&) = delete;
  chunked_copy_back& operator=(const chunked_copy_back&) = delete;
  ~chunked_copy_back();  // waits for the copies in flight: the destination may be going away

  // Starts a batch: queues the first window of copies; returns at once.
  void start();
  // Returns once chunk_index's data is in the destination.
  void await(std::size_t chunk_index);
  // Waits for every copy of the batch; returns how long the copies took, from the start of the
  // first to the end of the last (on the device, by events on the copies' stream: time the
  // consumers spend after the last copy is not in it, a copy queued late is).
  double finish();

 private:
  void copy_on_host();
  void queue_device_copies_up_to(std::size_t end);  // chunks [queued_, end)
  cudaStream_t copy_stream(std::size_t chunk_index) const {
    return streams_[chunk_index % streams_.size()].get();
  }

  computed_result c_;
  std::span<float> destination_;
  std::vector<chunk> chunks_;
  std::size_t window_;
  // The device's way.
  std::vector<handoff::stream> streams_;
  std::vector<event> chunk_copied_;
  std::optional<event> first_copy_starts_, last_copy_ends_;
  std::vector<event> stream_done_;  // the last copy of each stream after the first
  std::size_t queued_ = 0;
  // The host stand-in's way.
  std::thread copier_;
  std::atomic<std::size_t> chunks_copied_{0};
  double host_copy_seconds_ = 0.0;
};

}  // namespace handoff::patterns::postproc_split
