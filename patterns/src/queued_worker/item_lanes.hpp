#pragma once
// Where the slot variants' worker computes c = a + b: a fixed set of lanes, each able to carry one
// item in flight. On the device a lane owns its device buffers (allocated once, for the largest
// item), a stream and four events; an item's upload, kernel and download are enqueued on its
// lane's stream, so lanes overlap one another while each stays in order. On the host stand-in a
// lane adds at once, on the calling thread, and is finished as soon as it is submitted.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::queued_worker {

class item_lanes {
 public:
  item_lanes(compute_target target, std::size_t lanes, std::size_t max_elements);
  item_lanes(const item_lanes&) = delete;
  item_lanes& operator=(const item_lanes&) = delete;
  ~item_lanes();

  std::size_t size() const noexcept { return lane_count_; }

  // Enqueues the item on the lane, whose previous item must have finished. a and b are read, and
  // c written, asynchronously on the device: they must stay put until finished().
  void submit(std::size_t lane, std::span<const float> a, std::span<const float> b,
              std::span<float> c);
  // a and b have been read: their slot may be released. Never blocks.
  bool inputs_consumed(std::size_t lane);
  // c has been written. Never blocks.
  bool finished(std::size_t lane);
  void wait_until_finished(std::size_t lane);
  // The finished item's h2d, kernel and d2h times.
  void add_stage_times(std::size_t lane, stage_times& stages);

 private:
  struct device_lane;

  compute_target target_;
  std::size_t lane_count_;
  std::vector<std::unique_ptr<device_lane>> device_lanes_;
  std::vector<double> host_kernel_seconds_;
};

}  // namespace handoff::patterns::queued_worker
