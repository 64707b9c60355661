#include "handoff/patterns/multi_gpu/launch_threads.hpp"

#include <cuda_runtime_api.h>

#include <chrono>
#include <thread>
#include <utility>

#include "handoff/cuda_check.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

// Long enough to span the gap between two runs of a row: the driver poisons the outputs before
// every sample, a memset of up to a GiB and a synchronisation. With 200 us, the threads slept
// through that gap and each run paid their wake-up, which left a one-GPU run slower than the same
// launches from one thread. A thread spins on one core, and only while its session runs samples;
// it sleeps through a row's verification.
// (figures: docs/design/measured-along-the-way.md, "How long a launch thread spins")
constexpr auto spin_before_sleeping = std::chrono::milliseconds(20);

// Returns once value differs from seen: spinning first, then sleeping on the atomic.
template <typename T>
T wait_for_change(const std::atomic<T>& value, T seen) {
  const auto spin_until = std::chrono::steady_clock::now() + spin_before_sleeping;
  for (;;) {
    const T now = value.load(std::memory_order_acquire);
    if (now != seen) return now;
    if (std::chrono::steady_clock::now() >= spin_until) break;
    // On a machine with fewer cores than spinning threads, lets the thread that is due run.
    std::this_thread::yield();
  }
  for (;;) {
    value.wait(seen, std::memory_order_acquire);
    const T now = value.load(std::memory_order_acquire);
    if (now != seen) return now;
  }
}

}  // namespace

launch_threads::launch_threads(std::span<const int> ordinals)
    : launch_threads(ordinals.size(), [devices = std::vector<int>(
                                           ordinals.begin(), ordinals.end())](std::size_t index) {
        HANDOFF_CUDA_CHECK(cudaSetDevice(devices[index]));
      }) {}

launch_threads::launch_threads(std::size_t count, std::function<void(std::size_t)> prologue)
    : prologue_(std::move(prologue)), errors_(count) {
  threads_.reserve(count);
  try {
    for (std::size_t i = 0; i < count; ++i)
      threads_.emplace_back(&launch_threads::serve, this, i);
  } catch (...) {
    stop();
    throw;
  }
}

launch_threads::~launch_threads() {
  stop();
}

void launch_threads::stop() noexcept {
  stopping_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_acq_rel);
  generation_.notify_all();
  for (auto& thread : threads_) {
    if (thread.joinable()) thread.join();
  }
  threads_.clear();
}

void launch_threads::run_on_each(const std::function<void(std::size_t)>& task) {
  if (threads_.empty()) return;
  task_ = &task;
  for (auto& error : errors_)
    error = nullptr;
  unfinished_.store(threads_.size(), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::size_t left = threads_.size(); left != 0;)
    left = wait_for_change(unfinished_, left);
  task_ = nullptr;
  for (const auto& error : errors_) {
    if (error) std::rethrow_exception(error);
  }
}

void launch_threads::serve(std::size_t index) {
  std::exception_ptr prologue_error;
  try {
    if (prologue_) prologue_(index);
  } catch (...) {
    prologue_error = std::current_exception();
  }
  std::uint64_t seen = 0;
  for (;;) {
    seen = wait_for_change(generation_, seen);
    if (stopping_.load(std::memory_order_acquire)) return;
    if (prologue_error) {
      errors_[index] = prologue_error;
    } else {
      try {
        (*task_)(index);
      } catch (...) {
        errors_[index] = std::current_exception();
      }
    }
    if (unfinished_.fetch_sub(1, std::memory_order_acq_rel) == 1) unfinished_.notify_one();
  }
}

}  // namespace handoff::patterns::multi_gpu
