#pragma once
// A tensor crossing a process boundary: a fixed-size header, the raw payload, then a fixed-size
// trailer holding the payload's checksum.
//
// The checksum trails the payload so that neither side has to pass over the whole tensor on its
// own before or after the channel: the sender hashes each piece as it hands it to the channel and
// sends the digest last, and the receiver hashes each piece as it lands, while it is still in
// cache, and compares the digest with the trailer before it accepts the tensor. (Version 1 carried
// the checksum in the header, so a sender had to hash the whole tensor on one thread before the
// first byte could go, a large part of a host-path transfer.) Every field is little-endian:
//
//   header  offset  size  field
//                0     4  magic "HOFT"
//                4     2  version (2)
//                6     1  dtype (element_type)
//                7     1  rank, 0..8
//                8    64  shape: 8 x uint64; dimensions beyond the rank are 0
//               72     8  payload byte count
//   payload     80     N  the tensor's bytes, N = payload byte count
//   trailer   80+N     8  XXH3-64 of the payload
//
// The receiver's bytes are untrusted: decoding validates every field and throws a typed
// frame_error (frame_errors.hpp). It never allocates by a size the frame claims. A streaming
// receiver validates the header before it takes the payload, and must not treat the payload as a
// tensor until verify_frame_trailer has passed.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "handoff/transport/frame_errors.hpp"

namespace handoff::transport {

enum class element_type : std::uint8_t {
  float32 = 1,
  float64 = 2,
  int32 = 3,
  int64 = 4,
  uint8 = 5,
  float16 = 6,
  bfloat16 = 7
};

// Throw frame_unsupported_dtype for a value outside the enumeration.
std::size_t element_bytes(element_type);
std::string_view element_type_name(element_type);

inline constexpr std::array<std::byte, 4> frame_magic = {std::byte{'H'}, std::byte{'O'},
                                                         std::byte{'F'}, std::byte{'T'}};
inline constexpr std::uint16_t frame_version = 2;
inline constexpr std::size_t max_frame_rank = 8;
inline constexpr std::size_t frame_header_bytes = 4 + 2 + 1 + 1 + 8 * max_frame_rank + 8;
inline constexpr std::size_t frame_trailer_bytes = 8;

struct tensor_description {
  element_type dtype = element_type::float32;
  std::vector<std::uint64_t> shape;  // empty: a scalar (rank 0)

  // The product of the shape times the element size; throws frame_shape_mismatch on overflow.
  std::uint64_t payload_bytes() const;
};

using frame_header_bytes_array = std::array<std::byte, frame_header_bytes>;
using frame_trailer_bytes_array = std::array<std::byte, frame_trailer_bytes>;

// Header, payload and trailer together; frame_too_large if that overflows 64 bits.
std::uint64_t frame_wire_bytes(std::uint64_t payload_bytes);

// Throws frame_bad_rank, frame_unsupported_dtype or frame_shape_mismatch when the description and
// byte count disagree.
frame_header_bytes_array encode_frame_header(const tensor_description&,
                                             std::uint64_t payload_bytes);

struct frame_header {
  tensor_description tensor;
  std::uint64_t payload_bytes = 0;
};

// Validates magic, version, dtype, rank, that dimensions beyond the rank are zero, that shape times
// element size equals payload_bytes without overflow, and that payload_bytes <= max_payload_bytes.
// Reads the first frame_header_bytes of `header` (fewer is frame_truncated); anything after them
// is the caller's, such as the start of the payload.
frame_header decode_frame_header(std::span<const std::byte> header,
                                 std::uint64_t max_payload_bytes);

// Incremental XXH3-64, for hashing a payload piece by piece as it is sent or lands. Move-only;
// update or digest on a moved-from checksum throws std::logic_error.
class frame_checksum {
 public:
  frame_checksum();
  ~frame_checksum();
  frame_checksum(frame_checksum&&) noexcept;
  frame_checksum& operator=(frame_checksum&&) noexcept;
  frame_checksum(const frame_checksum&) = delete;
  frame_checksum& operator=(const frame_checksum&) = delete;

  void update(std::span<const std::byte> bytes);
  std::uint64_t digest() const;

 private:
  struct state;
  std::unique_ptr<state> state_;
};

// checksum is XXH3_64bits of the payload (frame_checksum's digest).
frame_trailer_bytes_array encode_frame_trailer(std::uint64_t checksum);
// The checksum a trailer carries; fewer than frame_trailer_bytes is frame_truncated.
std::uint64_t decode_frame_trailer(std::span<const std::byte> trailer);
// Throws frame_truncated for a short trailer, and frame_checksum_mismatch unless the trailer
// carries computed_checksum, the receiver's own hash of the payload it took.
void verify_frame_trailer(const frame_header&, std::span<const std::byte> trailer,
                          std::uint64_t computed_checksum);

// Whole frames in one buffer: the header, the payload, then the trailer.
std::vector<std::byte> encode_frame(const tensor_description&, std::span<const std::byte> payload);

struct decoded_frame {
  frame_header header;
  std::span<const std::byte> payload;  // points into the decoded buffer
  std::uint64_t checksum = 0;          // the trailer's, verified
};

// Validates everything decode_frame_header does, then the length and the checksum. A buffer shorter
// than header, payload and trailer is frame_truncated; one longer is frame_trailing_bytes.
decoded_frame decode_frame(std::span<const std::byte> frame, std::uint64_t max_payload_bytes);

}  // namespace handoff::transport
