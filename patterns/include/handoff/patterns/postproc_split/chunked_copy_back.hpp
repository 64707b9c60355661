#pragma once
// The overlapped variant's copy back: every chunk of c is queued for copying at once, and each can
// be awaited on its own, so the pool starts summing chunk k while chunk k + 1 is still on its way.
// On the device, one stream carries the copies (asynchronous, into page-locked memory) with an
// event after each chunk. Spread round robin over two or four streams, the copies ran no faster
// alone, and a batch with four workers reading them was slower
// (tools/probes/copy_back_pieces_probe.cu; figures: docs/design/measured-along-the-way.md,
// "Why the copy back stays on one stream"). The host stand-in has a copier thread that copies
// chunk after chunk and publishes how many are done.

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

  computed_result c_;
  std::span<float> destination_;
  std::vector<chunk> chunks_;
  std::size_t window_;
  // The device's way.
  std::optional<handoff::stream> stream_;
  std::vector<event> chunk_copied_;
  std::optional<event> first_copy_starts_, last_copy_ends_;
  std::size_t queued_ = 0;
  // The host stand-in's way.
  std::thread copier_;
  std::atomic<std::size_t> chunks_copied_{0};
  double host_copy_seconds_ = 0.0;
};

}  // namespace handoff::patterns::postproc_split
