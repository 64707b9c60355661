#pragma once
// Waits on GPU work that give up. A multi-GPU run waits on several devices and, through NCCL, on
// its peers: a peer that never arrives would hold cudaStreamSynchronize forever and hang the whole
// run, and a benchmark that can hang a nightly is worse than one that fails. These waits poll
// instead, and past their limit throw gpu_stalled, naming what was waited for, so that the row or
// the test fails and the run goes on.

#include <chrono>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "handoff/stream.hpp"

namespace handoff {

// What a wait is for, as a reader of the error needs it: the variant, the stage of its run
// (set-up, run, gather, tear-down...) and the CUDA device waited on.
struct wait_site {
  std::string_view variant;
  std::string_view stage;
  int device = -1;
};

class gpu_stalled : public std::runtime_error {
 public:
  gpu_stalled(const wait_site& site, double waited_seconds);
  const std::string& variant() const noexcept { return variant_; }
  const std::string& stage() const noexcept { return stage_; }
  int device() const noexcept { return device_; }

 private:
  std::string variant_;
  std::string stage_;
  int device_;
};

// How many waits of this process have given up so far. A tear-down that would wait for its peers
// (ncclCommDestroy) compares it with the count when it was set up, and aborts instead where a wait
// gave up in between: the stalled peer may never arrive.
std::size_t gpu_stalls_so_far() noexcept;

// How long a wait may last: HANDOFF_GPU_WAIT_SECONDS (a positive number of seconds), or 120 s, far
// above any set-up or run of the default and full profiles. Anything else in the variable is an
// std::invalid_argument naming it.
std::chrono::duration<double> gpu_wait_limit();

// Polls finished() until it answers true; once `limit` has passed without, throws gpu_stalled.
// Checked once more at the limit, so work that ends just then is not called stalled.
void wait_until(const std::function<bool()>& finished, const wait_site& site,
                std::chrono::duration<double> limit);

// The work recorded before `done` (or enqueued on `work`) has finished, within gpu_wait_limit().
void wait_for(const event& done, const wait_site& site);
void wait_for(const stream& work, const wait_site& site);
// The work on the current device's legacy default stream so far (a cudaMemset's, a cudaMemcpy's),
// where cudaDeviceSynchronize would also wait for every other stream, a stuck one included.
void wait_for_default_stream(const wait_site& site);

}  // namespace handoff
