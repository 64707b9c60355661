// The slot variants' worker. Each item arrives as a published input slot tagged with its index;
// its a and b are uploaded straight from the slot (page-locked by this process), and its c is
// downloaded straight into an output slot, published under the same tag.
//
// slots keeps one item in flight. streamed keeps one per lane: while item k+1 uploads, item k
// computes and item k-1 downloads. A slot goes back as soon as its copy is done: the input slot
// once the upload finished, the output slot (published) once the download finished, both in the
// order the rings require.

#include <deque>
#include <optional>

#include "handoff/host_registration.hpp"
#include "handoff/transport/channels/shm_ring.hpp"
#include "item_lanes.hpp"
#include "worker_loop.hpp"

namespace handoff::patterns::queued_worker {

using transport::shm_ring;

namespace {

using namespace std::chrono_literals;

// While items are in flight, the wait for the next input is cut into slices this long, so that
// finished items are handed back promptly rather than when the next item arrives.
constexpr auto retire_poll_interval = 200us;

struct in_flight {
  std::size_t input_slot;
  std::size_t output_slot;
  std::uint64_t index;
  std::size_t elements;
  std::size_t lane;
  bool input_released = false;
};

std::span<float> floats_in(std::span<std::byte> slot, std::size_t offset, std::size_t count) {
  return {reinterpret_cast<float*>(slot.data()) + offset, count};
}

class slot_pipeline {
 public:
  slot_pipeline(shm_ring& inputs, shm_ring& outputs, item_lanes& lanes)
      : inputs_(inputs), outputs_(outputs), lanes_(lanes) {}

  bool empty() const { return pending_.empty(); }
  bool full() const { return pending_.size() == lanes_.size(); }

  void submit(const shm_ring::filled& input, std::size_t output_slot) {
    const std::size_t count = input.used_bytes / (2 * sizeof(float));
    const auto source = inputs_.slot(input.index);
    lanes_.submit(next_lane_, floats_in(source, 0, count), floats_in(source, count, count),
                  floats_in(outputs_.slot(output_slot), 0, count));
    pending_.push_back({input.index, output_slot, input.tag, count, next_lane_});
    next_lane_ = (next_lane_ + 1) % lanes_.size();
  }

  // Hands back, in order and without blocking, every slot whose copy is done.
  void retire_ready(stage_times& stages) {
    for (auto& item : pending_) {
      if (item.input_released) continue;
      if (!lanes_.inputs_consumed(item.lane)) break;
      inputs_.release(item.input_slot);
      item.input_released = true;
    }
    while (!pending_.empty() && pending_.front().input_released &&
           lanes_.finished(pending_.front().lane)) {
      publish_oldest(stages);
    }
  }

  void retire_oldest(stage_times& stages) {
    lanes_.wait_until_finished(pending_.front().lane);
    retire_ready(stages);
  }

  void retire_all(stage_times& stages) {
    while (!pending_.empty())
      retire_oldest(stages);
  }

 private:
  void publish_oldest(stage_times& stages) {
    const auto item = pending_.front();
    lanes_.add_stage_times(item.lane, stages);
    outputs_.publish(item.output_slot, item.elements * sizeof(float), item.index);
    pending_.pop_front();
  }

  shm_ring& inputs_;
  shm_ring& outputs_;
  item_lanes& lanes_;
  std::deque<in_flight> pending_;
  std::size_t next_lane_ = 0;
};

bool is_sentinel(std::uint64_t tag) {
  return tag == protocol::end_of_batch_tag || tag == protocol::stop_tag;
}

void check_input(const shm_ring::filled& input, std::uint64_t expected_index,
                 std::size_t max_elements) {
  const auto fail = [&](const std::string& why) {
    throw protocol_violation("input slot for item " + std::to_string(expected_index) + ": " + why);
  };
  if (is_sentinel(input.tag)) {
    if (input.used_bytes != 0) fail("a sentinel with a payload");
    return;
  }
  if (input.tag != expected_index) fail("tagged " + std::to_string(input.tag) + ", out of order");
  if (input.used_bytes % (2 * sizeof(float)) != 0) {
    fail(std::to_string(input.used_bytes) + " bytes is not two vectors of floats");
  }
  if (input.used_bytes / (2 * sizeof(float)) > max_elements) fail("over the session's maximum");
}

void check_geometry(const shm_ring& inputs, const shm_ring& outputs, std::size_t max_elements) {
  if (inputs.slot_bytes() < 2 * max_elements * sizeof(float) ||
      outputs.slot_bytes() < max_elements * sizeof(float)) {
    throw protocol_violation("the rings' slots are too small for items of " +
                             std::to_string(max_elements) + " elements");
  }
}

}  // namespace

void run_slot_worker(const protocol::worker_arguments& arguments, transport::connection& control) {
  auto inputs = shm_ring::attach(protocol::input_ring_fd);
  auto outputs = shm_ring::attach(protocol::output_ring_fd);
  check_geometry(inputs, outputs, arguments.max_item_elements);
  std::optional<host_registration> registered_inputs;
  std::optional<host_registration> registered_outputs;
  if (arguments.target == compute_target::device) {
    create_device_context();
    registered_inputs.emplace(inputs.slot_region());
    registered_outputs.emplace(outputs.slot_region());
  }
  item_lanes lanes(arguments.target, arguments.depth, arguments.max_item_elements);
  send_report(control, protocol::worker_report{}, arguments.patience);  // ready

  const auto watch = coordinator_watch();
  const auto deadline = [&] { return transport::deadline_clock::now() + arguments.patience; };
  while (wait_for_batch(control)) {
    protocol::worker_report report;
    slot_pipeline pipeline(inputs, outputs, lanes);
    while (true) {
      pipeline.retire_ready(report.stages);
      if (pipeline.full()) {
        pipeline.retire_oldest(report.stages);
        continue;
      }
      std::optional<shm_ring::filled> input;
      try {
        input = inputs.acquire_filled(
            pipeline.empty() ? deadline() : transport::deadline_clock::now() + retire_poll_interval,
            watch);
      } catch (const transport::deadline_exceeded&) {
        if (pipeline.empty()) throw;
        continue;  // items in flight: retire what finished, then wait again
      }
      check_input(*input, report.items, arguments.max_item_elements);
      if (is_sentinel(input->tag)) {
        pipeline.retire_all(report.stages);
        inputs.release(input->index);
        send_report(control, report, arguments.patience);
        if (input->tag == protocol::stop_tag) return;
        break;
      }
      pipeline.submit(*input, outputs.acquire_free(deadline(), watch));
      ++report.items;
      pause_if_asked(arguments, report.items);
    }
  }
}

}  // namespace handoff::patterns::queued_worker
