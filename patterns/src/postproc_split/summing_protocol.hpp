#pragma once
// The records between the coordinator and a summing worker. Each request is one message on the
// worker's connection: a fixed header, followed for sum_payload by the chunk's floats in the same
// message; attach is followed by a message carrying the segment's descriptor. Every request gets
// one sum_reply. The worker treats every field as untrusted: a wrong magic, a length that does not
// match the header, or a range outside its segment ends the worker with an error, which the
// coordinator then reports as that worker's death.

#include <cstddef>
#include <cstdint>

namespace handoff::patterns::postproc_split {

inline constexpr std::uint32_t protocol_magic = 0x53554D31;  // "SUM1"

// A chunk sent by value is at most 1 GiB, so a forged header cannot make a worker allocate more.
inline constexpr std::uint64_t max_payload_elements = std::uint64_t{1} << 28;

enum class request_kind : std::uint32_t {
  sum_payload = 1,  // the floats follow the header
  sum_shared = 2,   // [offset, offset + count) of the attached segment
  attach = 3,       // count is the segment's size in bytes; its descriptor follows
};

struct sum_request {
  std::uint32_t magic = protocol_magic;
  request_kind kind = request_kind::sum_payload;
  std::uint64_t chunk_index = 0;
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
};

struct sum_reply {
  std::uint32_t magic = protocol_magic;
  request_kind kind = request_kind::sum_payload;
  std::uint64_t chunk_index = 0;
  double partial = 0.0;
  double deserialize_seconds = 0.0;  // receiving the payload, for sum_payload
  double post_seconds = 0.0;         // summing the chunk
};

inline constexpr std::uint64_t max_request_bytes =
    sizeof(sum_request) + max_payload_elements * sizeof(float);

}  // namespace handoff::patterns::postproc_split
