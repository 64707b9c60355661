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

}  // namespace handoff::patterns::elementwise::map_protocol
