#pragma once
// The messages between the map coordinator and its workers. Every message is one header followed
// by header.values floats. The worker treats what it receives as untrusted: the kind, the
// workload, the value count and the order are each checked before anything is read or allocated.

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "handoff/patterns/elementwise/map_pool.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns::elementwise::map_protocol {

enum class kind : std::uint32_t {
  begin_batch = 0x4D410001,
  task = 0x4D410002,
  result = 0x4D410003
};

struct header {
  kind what;
  std::uint32_t workload;  // extended_workload
  std::uint64_t index;     // begin_batch: the affine order n (0 otherwise); task/result: the item
  std::uint64_t values;    // floats after the header
  double compute_seconds;  // result: the worker's time on the item
};

inline std::span<const std::byte> bytes_of(const header& value) {
  return std::as_bytes(std::span(&value, 1));
}

inline std::span<const std::byte> bytes_of(std::span<const float> values) {
  return std::as_bytes(values);
}

// The largest message each side takes: a result holds at most one column at the largest order; a
// request at most the affine set-up, W and b, at the largest order.
inline constexpr std::uint64_t max_result_bytes = sizeof(header) + max_map_order * sizeof(float);
inline constexpr std::uint64_t max_request_bytes =
    sizeof(header) + (max_map_order * max_map_order + max_map_order) * sizeof(float);

// The bytes one message puts on a channel: the connection's 8-byte length, the header, the floats.
inline std::uint64_t wire_bytes(std::uint64_t values) {
  return sizeof(std::uint64_t) + sizeof(header) + values * sizeof(float);
}

// Splits a received message into its header and its floats, checking that they agree.
struct parsed {
  header head;
  std::vector<float> values;
};

inline parsed parse(std::span<const std::byte> message, const char* from) {
  if (message.size() < sizeof(header)) {
    throw transport::process_error(std::string("map message from ") + from + ": " +
                                   std::to_string(message.size()) +
                                   " bytes, shorter than its header");
  }
  parsed out{};
  std::memcpy(&out.head, message.data(), sizeof(header));
  const std::size_t body = message.size() - sizeof(header);
  if (body % sizeof(float) != 0 || body / sizeof(float) != out.head.values) {
    throw transport::process_error(std::string("map message from ") + from + ": header claims " +
                                   std::to_string(out.head.values) + " floats but " +
                                   std::to_string(body) + " bytes follow");
  }
  out.values.resize(out.head.values);
  if (body > 0) std::memcpy(out.values.data(), message.data() + sizeof(header), body);
  return out;
}

// The coordinator's check of a result for a batch of seen.size() items of workload, each answered
// with values_per_result floats; seen counts the answers so far. The kind, the workload, an item
// of the batch answered once, the float count and the worker's time (finite, not negative: it is
// added to the row's kernel stage) are checked; anything else is process_error. Returns the item,
// now marked seen.
inline std::uint64_t check_result(const parsed& message, std::uint32_t workload,
                                  std::uint64_t values_per_result, std::span<std::uint8_t> seen) {
  const auto& head = message.head;
  if (head.what != kind::result || head.workload != workload || head.index >= seen.size() ||
      head.values != values_per_result) {
    throw transport::process_error("map coordinator: a malformed result (item " +
                                   std::to_string(head.index) + ", " + std::to_string(head.values) +
                                   " values)");
  }
  if (!possible_seconds(head.compute_seconds)) {
    throw transport::process_error("map coordinator: item " + std::to_string(head.index) +
                                   " came with a compute time of " +
                                   std::to_string(head.compute_seconds) + " s");
  }
  if (seen[head.index]++ != 0) {
    throw transport::process_error("map coordinator: item " + std::to_string(head.index) +
                                   " came back twice");
  }
  return head.index;
}

}  // namespace handoff::patterns::elementwise::map_protocol
