#pragma once
// The threads variant: shared_gpu without the processes. The preparation threads of this process
// prepare every chunk together, thread t its piece t (cut like np.array_split), into a
// page-locked staging slot (chunk k uses slot k % slots); this thread streams each chunk through a
// chunk_streamer as soon as all its pieces are in. A slot is refilled only after its previous
// chunk's h2d has completed, so preparation, both copy directions and the kernels overlap with no
// copy between processes and no process start.
//
// On the host stand-in the staging is ordinary memory and the add runs on the calling thread.
// Stages: prep (summed over the threads), and the streamer's h2d, kernel and d2h. Every wait has
// the patience as its deadline (deadline_exceeded); a failure in a preparation thread is rethrown
// by run() once every thread has stopped and every copy has finished.

#include <chrono>
#include <memory>
#include <span>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/pool_prep/batch.hpp"
#include "handoff/patterns/pool_prep/chunk_streamer.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::pool_prep {

struct threads_options {
  std::size_t prep_threads = 4;
  std::size_t max_chunk_elements = std::size_t{1} << 20;
  compute_target target = compute_target::device;
  std::size_t streams = 3;
  // 0: three (one chunk being prepared, one being copied up, one spare).
  std::size_t staging_slots = 0;
  std::chrono::milliseconds patience = default_patience;
};

class threads_pipeline {
 public:
  // 0 threads or a chunk limit of 0 is std::invalid_argument.
  explicit threads_pipeline(const threads_options& options);
  ~threads_pipeline();
  threads_pipeline(const threads_pipeline&) = delete;
  threads_pipeline& operator=(const threads_pipeline&) = delete;

  // As shared_gpu_pool::run: out must hold work.total_elements floats, page-locked on the device.
  stage_times run(const batch& work, std::span<float> out);

  std::size_t staging_slots() const noexcept { return slots_; }

 private:
  class batch_state;
  void prepare_share(batch_state& state, const batch& work, std::size_t thread);
  // Half 0 (a) or 1 (b) of a staging slot, max_chunk_elements long.
  std::span<float> slot(std::size_t index, std::size_t half) const;

  threads_options options_;
  std::size_t slots_;
  chunk_streamer streamer_;
  struct staging;
  std::unique_ptr<staging> staging_;
};

}  // namespace handoff::patterns::pool_prep
