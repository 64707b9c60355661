#pragma once
// The GPU owner's half of shared_gpu and threads: prepared chunks go in, c = a + b lands in the
// caller's output. On the device each chunk is enqueued on one of several streams (round robin):
// async h2d copies of its a and b from page-locked memory (one pair per piece, when several
// preparers each made a piece of the chunk), the kernel, an async d2h into the output (page-locked
// too, for the copy to be asynchronous), so one chunk's copies overlap another's kernel and the
// two copy directions overlap each other. A chunk's input memory may be reused once its h2d
// copies have completed, which inputs_read() tells without waiting. On the host stand-in each
// piece is added at once on the calling thread, into the output.
//
// Stages: per chunk, from events on its stream: h2d, kernel and d2h (on the host: the add, as
// kernel). With several streams a stage also counts time its stream waited for a busy engine.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::pool_prep {

class chunk_streamer {
 public:
  // 0 streams or a chunk limit of 0 is std::invalid_argument.
  chunk_streamer(compute_target target, std::size_t max_chunk_elements, std::size_t streams);
  ~chunk_streamer();
  chunk_streamer(const chunk_streamer&) = delete;
  chunk_streamer& operator=(const chunk_streamer&) = delete;

  // Starts a batch of `chunks` chunks whose sums go to out (which must stay valid until finish).
  void begin(std::span<float> out, std::size_t chunks);
  // One chunk, whose sum goes to out[offset, offset + count), in three steps: begin_chunk, then
  // add_piece for each piece of its inputs (elements [at, at + a.size()) of the chunk), then
  // end_chunk. Chunks go one at a time, each in full. The pieces' memory must stay untouched until
  // inputs_read(chunk), which only end_chunk makes meaningful.
  void begin_chunk(std::size_t chunk);
  void add_piece(std::size_t chunk, std::size_t offset, std::size_t at, std::span<const float> a,
                 std::span<const float> b);
  void end_chunk(std::size_t chunk, std::size_t offset, std::size_t count);
  // The three steps for a chunk in one piece.
  void submit(std::size_t chunk, std::size_t offset, std::span<const float> a,
              std::span<const float> b);
  bool inputs_read(std::size_t chunk) const;
  void wait_inputs_read(std::size_t chunk) const;
  // Waits until every chunk's sum is in out, and adds the batch's stage times to stages.
  void finish(stage_times& stages);
  // On a failure path: waits for whatever is in flight, so that no copy still reads or writes
  // memory about to be released. Never throws.
  void quiesce() noexcept;

  compute_target target() const noexcept { return target_; }
  std::size_t max_chunk_elements() const noexcept { return max_chunk_elements_; }

 private:
  struct lane;
  struct chunk_events;
  void check_chunk(std::size_t chunk, std::size_t offset, std::size_t count) const;
  const lane& lane_of(std::size_t chunk) const { return *lanes_[chunk % lanes_.size()]; }

  compute_target target_;
  std::size_t max_chunk_elements_;
  std::vector<std::unique_ptr<lane>> lanes_;
  std::vector<std::unique_ptr<chunk_events>> events_;  // grows to the largest batch seen
  std::span<float> out_;
  std::size_t chunks_ = 0;
  double host_kernel_seconds_ = 0;
};

}  // namespace handoff::patterns::pool_prep
