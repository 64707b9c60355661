#pragma once
// What crosses between the producer and its GPU worker, besides the payload itself: the worker's
// command line, the control records on its channel, the header of every queue message and the
// tags of the ring sentinels.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::queued_worker::protocol {

inline constexpr std::uint32_t magic = 0x3157'5148;  // "HQW1"

// How a batch ends: the worker waits for the next one, or exits (the recipe's None sentinel).
enum class ending : std::uint32_t { end_of_batch = 1, stop = 2 };

// The header of every message on the seed's queues: an item (or its result), or a sentinel.
enum class message_kind : std::uint32_t { item = 1, end_of_batch = 2, stop = 3 };
struct message_header {
  std::uint32_t magic = protocol::magic;
  message_kind kind = message_kind::item;
  std::uint64_t index = 0;     // the item's place in its batch
  std::uint64_t elements = 0;  // floats in each of a, b and c
};

inline message_kind sentinel_kind(ending how) {
  return how == ending::stop ? message_kind::stop : message_kind::end_of_batch;
}

// Ring tags: an item's tag is its index in the batch; the sentinels' are far above any index.
inline constexpr std::uint64_t end_of_batch_tag = ~std::uint64_t{0};
inline constexpr std::uint64_t stop_tag = ~std::uint64_t{0} - 1;
inline std::uint64_t sentinel_tag(ending how) {
  return how == ending::stop ? stop_tag : end_of_batch_tag;
}

// Producer to worker, on the control channel, before each batch: lets the worker time its own
// stages from the batch's start rather than from whenever it began to wait.
struct batch_begin {
  std::uint32_t magic = protocol::magic;
  ending how = ending::end_of_batch;
};

// Worker to producer: once when ready (items 0), and after each batch's sentinel.
struct worker_report {
  std::uint32_t magic = protocol::magic;
  std::uint32_t ok = 1;
  std::uint64_t items = 0;
  stage_times stages;
  std::array<char, 472> error{};

  void set_error(std::string_view text) {
    ok = 0;
    const std::size_t length = std::min(text.size(), error.size() - 1);
    std::copy_n(text.data(), length, error.data());
    error[length] = '\0';
  }
  std::string error_text() const {
    return std::string(error.data(), std::find(error.begin(), error.end(), '\0'));
  }
};

// Where the worker finds its channels (after its control channel, descriptor 3).
inline constexpr std::array<int, 3> data_queue_fds{4, 5, 6};
inline constexpr std::array<int, 3> results_queue_fds{7, 8, 9};
inline constexpr int input_ring_fd = 4;
inline constexpr int output_ring_fd = 5;

// The items the variant's worker keeps in flight with slot_count slots per ring (its behaviour
// says; the worker gets it as an argument).
std::size_t pipeline_depth(std::string_view variant, std::size_t slot_count);

struct worker_arguments {
  std::string variant = "seed";
  compute_target target = compute_target::device;
  std::size_t max_item_elements = 0;
  std::size_t depth = 1;
  bool task_done_for_sentinel = true;
  std::size_t pause_after_items = 0;
  std::chrono::milliseconds patience{60000};

  static worker_arguments from(const worker_setup& setup);
  std::vector<std::string> encode() const;
  // Anything malformed is std::invalid_argument.
  static worker_arguments decode(std::span<const std::string> arguments);
};

}  // namespace handoff::patterns::queued_worker::protocol
