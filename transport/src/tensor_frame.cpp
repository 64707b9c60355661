#include "handoff/transport/tensor_frame.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace handoff::transport {
namespace {

// Field offsets; the table in tensor_frame.hpp is the specification.
constexpr std::size_t magic_offset = 0;
constexpr std::size_t version_offset = 4;
constexpr std::size_t dtype_offset = 6;
constexpr std::size_t rank_offset = 7;
constexpr std::size_t shape_offset = 8;
constexpr std::size_t payload_bytes_offset = shape_offset + 8 * max_frame_rank;
static_assert(payload_bytes_offset + 8 == frame_header_bytes);

// Byte by byte, so the wire format is little-endian whatever the host's byte order.
void store_le(std::byte* out, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    out[i] = static_cast<std::byte>((value >> (8 * i)) & 0xff);
  }
}

std::uint64_t load_le(std::span<const std::byte> bytes, std::size_t offset, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= std::to_integer<std::uint64_t>(bytes[offset + i]) << (8 * i);
  }
  return value;
}

std::string hex(std::uint64_t value) {
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string hex_bytes(std::span<const std::byte> bytes) {
  std::string text;
  for (const std::byte b : bytes) {
    char pair[4];
    std::snprintf(pair, sizeof pair, "%02x", std::to_integer<unsigned>(b));
    if (!text.empty()) text += ' ';
    text += pair;
  }
  return text;
}

std::string describe_shape(std::span<const std::uint64_t> shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

// The shape's byte count, or false when it does not fit in 64 bits. A zero dimension makes the
// count zero however large the other dimensions are.
bool shape_byte_count(element_type dtype, std::span<const std::uint64_t> shape,
                      std::uint64_t& count) {
  std::uint64_t product = element_bytes(dtype);
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) product = 0;
  for (const std::uint64_t dimension : shape) {
    if (__builtin_mul_overflow(product, dimension, &product)) return false;
  }
  count = product;
  return true;
}

void check_shape_matches(const tensor_description& tensor, std::uint64_t payload_bytes) {
  const std::uint64_t expected = tensor.payload_bytes();
  if (expected != payload_bytes) {
    throw frame_shape_mismatch("frame shape " + describe_shape(tensor.shape) + " of " +
                               std::string(element_type_name(tensor.dtype)) + " is " +
                               std::to_string(expected) + " bytes, but the frame claims " +
                               std::to_string(payload_bytes) + " payload bytes");
  }
}

std::uint64_t checksum_of(std::span<const std::byte> bytes) {
  frame_checksum checksum;
  checksum.update(bytes);
  return checksum.digest();
}

}  // namespace

std::size_t element_bytes(element_type dtype) {
  switch (dtype) {
    case element_type::float32:
      return 4;
    case element_type::float64:
      return 8;
    case element_type::int32:
      return 4;
    case element_type::int64:
      return 8;
    case element_type::uint8:
      return 1;
    case element_type::float16:
      return 2;
    case element_type::bfloat16:
      return 2;
  }
  throw frame_unsupported_dtype("frame dtype " + std::to_string(static_cast<unsigned>(dtype)) +
                                " is not supported; known dtypes are 1 (float32) to 7 (bfloat16)");
}

std::string_view element_type_name(element_type dtype) {
  switch (dtype) {
    case element_type::float32:
      return "float32";
    case element_type::float64:
      return "float64";
    case element_type::int32:
      return "int32";
    case element_type::int64:
      return "int64";
    case element_type::uint8:
      return "uint8";
    case element_type::float16:
      return "float16";
    case element_type::bfloat16:
      return "bfloat16";
  }
  return "unknown dtype";
}

std::uint64_t tensor_description::payload_bytes() const {
  std::uint64_t count = 0;
  if (!shape_byte_count(dtype, shape, count)) {
    throw frame_shape_mismatch("frame shape " + describe_shape(shape) + " of " +
                               std::string(element_type_name(dtype)) +
                               " overflows a 64-bit byte count");
  }
  return count;
}

std::uint64_t frame_wire_bytes(std::uint64_t payload_bytes) {
  std::uint64_t total = 0;
  if (__builtin_add_overflow(payload_bytes, frame_header_bytes + frame_trailer_bytes, &total)) {
    throw frame_too_large("a frame of " + std::to_string(payload_bytes) +
                          " payload bytes overflows a 64-bit length");
  }
  return total;
}

frame_header_bytes_array encode_frame_header(const tensor_description& tensor,
                                             std::uint64_t payload_bytes) {
  if (tensor.shape.size() > max_frame_rank) {
    throw frame_bad_rank("frame rank " + std::to_string(tensor.shape.size()) +
                         " exceeds the maximum of " + std::to_string(max_frame_rank));
  }
  check_shape_matches(tensor, payload_bytes);

  frame_header_bytes_array header{};  // zero-filled, so unused dimensions are 0
  std::copy(frame_magic.begin(), frame_magic.end(), header.begin() + magic_offset);
  store_le(header.data() + version_offset, frame_version, 2);
  store_le(header.data() + dtype_offset, static_cast<std::uint8_t>(tensor.dtype), 1);
  store_le(header.data() + rank_offset, tensor.shape.size(), 1);
  for (std::size_t i = 0; i < tensor.shape.size(); ++i) {
    store_le(header.data() + shape_offset + 8 * i, tensor.shape[i], 8);
  }
  store_le(header.data() + payload_bytes_offset, payload_bytes, 8);
  return header;
}

frame_header decode_frame_header(std::span<const std::byte> header,
                                 std::uint64_t max_payload_bytes) {
  if (header.size() < frame_header_bytes) {
    throw frame_truncated("frame header needs " + std::to_string(frame_header_bytes) +
                          " bytes; got " + std::to_string(header.size()));
  }
  const auto magic = header.subspan(magic_offset, frame_magic.size());
  if (!std::equal(magic.begin(), magic.end(), frame_magic.begin())) {
    throw frame_bad_magic("frame magic is " + hex_bytes(magic) + "; expected " +
                          hex_bytes(frame_magic) + " (\"HOFT\")");
  }
  const std::uint64_t version = load_le(header, version_offset, 2);
  if (version != frame_version) {
    throw frame_unsupported_version("frame version " + std::to_string(version) +
                                    " is not supported; this build reads version " +
                                    std::to_string(frame_version));
  }
  frame_header decoded;
  decoded.tensor.dtype = static_cast<element_type>(load_le(header, dtype_offset, 1));
  element_bytes(decoded.tensor.dtype);  // throws frame_unsupported_dtype

  const std::uint64_t rank = load_le(header, rank_offset, 1);
  if (rank > max_frame_rank) {
    throw frame_bad_rank("frame rank " + std::to_string(rank) + " exceeds the maximum of " +
                         std::to_string(max_frame_rank));
  }
  for (std::size_t i = 0; i < max_frame_rank; ++i) {
    const std::uint64_t dimension = load_le(header, shape_offset + 8 * i, 8);
    if (i < rank) {
      decoded.tensor.shape.push_back(dimension);  // at most max_frame_rank entries
    } else if (dimension != 0) {
      throw frame_shape_mismatch("frame rank is " + std::to_string(rank) + " but shape dimension " +
                                 std::to_string(i) + " is " + std::to_string(dimension) +
                                 "; dimensions beyond the rank must be 0");
    }
  }

  decoded.payload_bytes = load_le(header, payload_bytes_offset, 8);
  if (decoded.payload_bytes > max_payload_bytes) {
    throw frame_too_large("frame claims " + std::to_string(decoded.payload_bytes) +
                          " payload bytes; the cap is " + std::to_string(max_payload_bytes));
  }
  check_shape_matches(decoded.tensor, decoded.payload_bytes);
  return decoded;
}

frame_trailer_bytes_array encode_frame_trailer(std::uint64_t checksum) {
  frame_trailer_bytes_array trailer{};
  store_le(trailer.data(), checksum, frame_trailer_bytes);
  return trailer;
}

std::uint64_t decode_frame_trailer(std::span<const std::byte> trailer) {
  if (trailer.size() < frame_trailer_bytes) {
    throw frame_truncated("frame trailer needs " + std::to_string(frame_trailer_bytes) +
                          " bytes; got " + std::to_string(trailer.size()));
  }
  return load_le(trailer, 0, frame_trailer_bytes);
}

void verify_frame_trailer(const frame_header& header, std::span<const std::byte> trailer,
                          std::uint64_t computed_checksum) {
  const std::uint64_t claimed = decode_frame_trailer(trailer);
  if (computed_checksum != claimed) {
    throw frame_checksum_mismatch("frame payload checksum is " + hex(computed_checksum) +
                                  ", but the trailer claims " + hex(claimed) + " (" +
                                  std::to_string(header.payload_bytes) + " payload bytes)");
  }
}

std::vector<std::byte> encode_frame(const tensor_description& tensor,
                                    std::span<const std::byte> payload) {
  const auto header = encode_frame_header(tensor, payload.size());
  const auto trailer = encode_frame_trailer(checksum_of(payload));
  // Sized up front and copied into: GCC 12 reports a false stringop-overflow for two inserts.
  std::vector<std::byte> frame(header.size() + payload.size() + trailer.size());
  auto out = std::copy(header.begin(), header.end(), frame.begin());
  out = std::copy(payload.begin(), payload.end(), out);
  std::copy(trailer.begin(), trailer.end(), out);
  return frame;
}

decoded_frame decode_frame(std::span<const std::byte> frame, std::uint64_t max_payload_bytes) {
  decoded_frame decoded{decode_frame_header(frame, max_payload_bytes), {}, 0};
  const std::uint64_t claimed = decoded.header.payload_bytes;
  const std::size_t present = frame.size() - frame_header_bytes;
  // claimed + frame_trailer_bytes may not fit in 64 bits under a huge cap: compare in two steps.
  if (present < claimed || present - claimed < frame_trailer_bytes) {
    throw frame_truncated("frame claims " + std::to_string(claimed) + " payload bytes and an " +
                          std::to_string(frame_trailer_bytes) + "-byte trailer; only " +
                          std::to_string(present) + " bytes follow its header");
  }
  if (present - claimed > frame_trailer_bytes) {
    throw frame_trailing_bytes(
        "frame has " + std::to_string(present - claimed - frame_trailer_bytes) +
        " bytes after its " + std::to_string(claimed) + "-byte payload and trailer");
  }
  decoded.payload = frame.subspan(frame_header_bytes, claimed);
  const auto trailer = frame.subspan(frame_header_bytes + claimed);
  verify_frame_trailer(decoded.header, trailer, checksum_of(decoded.payload));
  decoded.checksum = decode_frame_trailer(trailer);
  return decoded;
}

}  // namespace handoff::transport
