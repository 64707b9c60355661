#pragma once
// The devices a partition plan runs on, as one process drives them: for each, its stream, its
// parts' input and output packed in one buffer each (a part sits at its local_offset), and the
// events that order the work and time each device. A single process drives every device of the
// plan; an MPI rank drives one, its own rank's.
//
// Work is ordered by events, never by synchronising the host: fork() makes every device's stream
// wait for an event on the origin stream, join() makes the origin wait for every device, so a
// whole multi-GPU run sits between two events on one stream and is timed there.

#include <cuda_runtime_api.h>

#include <span>
#include <vector>

#include "handoff/bounded_wait.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/patterns/multi_gpu/partition.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/stream.hpp"
#include "handoff/user_kernel.hpp"

namespace handoff::patterns::multi_gpu {

// Made while its device is current, so that its stream, events and buffers belong to it.
struct device_slot {
  device_slot(const partition_plan& plan, int rank, int ordinal);

  int rank = 0;     // the plan's device index
  int ordinal = 0;  // the CUDA device it runs on
  std::vector<part> parts;
  std::size_t elements = 0;
  handoff::stream stream;
  device_buffer<float> input;
  device_buffer<float> output;
  // Memory a gather lends for the kernel's results in place of output, while it lives: an
  // in-place all-gather's own part of its registered result (nccl_gather.hpp). Null otherwise.
  float* lent_output = nullptr;
  float* output_data() noexcept { return lent_output != nullptr ? lent_output : output.data(); }
  const float* output_data() const noexcept {
    return lent_output != nullptr ? lent_output : output.data();
  }
  event busy_start;
  event busy_stop;
  event done{cudaEventDisableTiming};
  event fork_point{cudaEventDisableTiming};  // used on the origin slot only
  // The kernel whose launch on this slot's input and output has passed launch_check. The buffers
  // are the slot's for life, so the check's answer cannot change between runs, and repeating its
  // two pointer queries per device inside every timed run only delayed the later devices' launches.
  const void* checked_kernel = nullptr;
};

class partitioned_devices {
 public:
  // One slot per rank, rank i on CUDA device ordinals[i]; input is the whole array, which is kept
  // in pinned memory for the uploads and copied to the devices once here.
  partitioned_devices(partition_plan plan, std::span<const int> ranks,
                      std::span<const int> ordinals, std::span<const float> input);
  // Every device of the plan, device d on CUDA device d.
  partitioned_devices(partition_plan plan, std::span<const float> input);

  const partition_plan& plan() const noexcept { return plan_; }
  std::span<device_slot> slots() noexcept { return slots_; }
  std::span<const device_slot> slots() const noexcept { return slots_; }
  cudaStream_t origin() const noexcept { return slots_.front().stream.get(); }
  const float* pinned_input() const noexcept { return pinned_input_.data(); }

  void fork();  // every slot's stream waits for the origin's work so far, then starts its timer
  void join();  // every slot stops its timer; the origin waits for every slot

  void enqueue_uploads();  // each part, pinned host to its device, on its slot's stream
  void enqueue_kernels(const user_kernel& kernel);  // with the checks of launch_check.hpp
  void load_kernel(const user_kernel& kernel);  // on every device, before any run (user_kernel.hpp)

  // fork(), join() and the enqueues one slot at a time, for launch threads that each drive one
  // slot (launch_threads.hpp): record_fork_point() before any slot starts, wait_for_slots() after
  // every slot has finished enqueueing.
  void record_fork_point();
  void start(device_slot& slot);
  void enqueue_uploads(device_slot& slot);
  void enqueue_kernel(device_slot& slot, const user_kernel& kernel);
  void finish(device_slot& slot);
  void wait_for_slots();
  void poison_outputs();
  // For runs that upload: a part that is not uploaded then shows in the result.
  void poison_inputs();
  // Waits for every slot's stream, each within bounded_wait's limit: site names the variant and
  // the stage (its device is each slot's own).
  void synchronize(const wait_site& site) const;
  void synchronize() const { synchronize({.variant = {}, .stage = "set-up", .device = -1}); }

  // Seconds each slot was busy between fork() and join() in the last run; waits for the run.
  std::vector<double> busy_seconds() const;
  // The slots' outputs, copied back and placed at their parts' global offsets (untimed).
  reference::host_vector<float> assembled_outputs() const;

 private:
  partition_plan plan_;
  std::vector<device_slot> slots_;
  pinned_buffer<float> pinned_input_;
};

}  // namespace handoff::patterns::multi_gpu
