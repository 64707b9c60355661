#pragma once
// One host thread per device, for a single process that drives several GPUs. One host thread
// launching on each device in turn starts device d's work d launches after device 0's: that skew
// cost the kernel rows a sizeable share of their run, and one rank per GPU under mpirun did not pay
// it. Each thread here has its device current for its whole life and runs the enqueues of that
// device only, so the devices' launches overlap instead of queueing.
//
// Handing a run to the threads must cost less than the launches it spreads, so a thread that has
// just finished spins on its next task for a while before it sleeps (on the atomic, a futex), and
// the caller spins on the threads' completion: a sleeping thread takes longer to wake than the
// launches it would spread.
// (figures: docs/design/measured-along-the-way.md, "Why one launch thread per device")

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <span>
#include <thread>
#include <vector>

namespace handoff::patterns::multi_gpu {

class launch_threads {
 public:
  // Thread i makes CUDA device ordinals[i] current before it takes any task.
  explicit launch_threads(std::span<const int> ordinals);
  // count threads; thread i runs prologue(i) before it takes any task. A prologue that throws
  // fails every task of that thread with its exception.
  launch_threads(std::size_t count, std::function<void(std::size_t)> prologue);
  launch_threads(const launch_threads&) = delete;
  launch_threads& operator=(const launch_threads&) = delete;
  ~launch_threads();

  std::size_t size() const noexcept { return threads_.size(); }

  // Runs task(i) on thread i, for every thread at once, and returns when every one has returned.
  // When tasks throw, the first thread's exception (by index) is rethrown here, after all return.
  void run_on_each(const std::function<void(std::size_t)>& task);

 private:
  void serve(std::size_t index);
  void stop() noexcept;  // wakes every thread to return, and joins them

  std::function<void(std::size_t)> prologue_;
  std::vector<std::exception_ptr> errors_;
  const std::function<void(std::size_t)>* task_ = nullptr;
  std::atomic<std::uint64_t> generation_{0};  // one more for each task; the threads wait on it
  std::atomic<std::size_t> unfinished_{0};
  std::atomic<bool> stopping_{false};
  std::vector<std::thread> threads_;  // last: every member above exists before a thread starts
};

}  // namespace handoff::patterns::multi_gpu
