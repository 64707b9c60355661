#include "handoff/transport/tensor_frame.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <source_location>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <vector>

namespace handoff::patterns {

using transport::decode_frame;
using transport::decode_frame_header;
using transport::element_bytes;
using transport::element_type;
using transport::encode_frame;
using transport::encode_frame_header;
using transport::encode_frame_trailer;
using transport::frame_checksum;
using transport::frame_header_bytes;
using transport::frame_shape_mismatch;
using transport::frame_trailer_bytes;
using transport::frame_truncated;
using transport::tensor_description;
using transport::verify_frame_trailer;

namespace {

constexpr std::uint64_t one_mib = 1 << 20;

// A payload whose bytes all differ from their neighbours, so a misplaced byte cannot go unseen.
std::vector<std::byte> patterned_payload(std::size_t bytes) {
  std::vector<std::byte> payload(bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    payload[i] = static_cast<std::byte>((i * 37 + 11) & 0xff);
  return payload;
}

// float32 [2, 3]: 24 payload bytes, 112 frame bytes (80 header, 24 payload, 8 trailer).
const tensor_description small_tensor{element_type::float32, {2, 3}};

std::vector<std::byte> small_frame() {
  return encode_frame(small_tensor, patterned_payload(24));
}

// Writes one little-endian header field, to forge frames no encoder would produce.
void set_field(std::span<std::byte> frame, std::size_t offset, std::uint64_t value,
               std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    frame[offset + i] = static_cast<std::byte>((value >> (8 * i)) & 0xff);
  }
}

std::uint64_t get_field(std::span<const std::byte> frame, std::size_t offset, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    value |= std::to_integer<std::uint64_t>(frame[offset + i]) << (8 * i);
  }
  return value;
}

// Expects `action` to throw exactly Error (not a sibling or the base) with a message containing
// `fragment`, so each test pins both the type a caller catches and the words a person reads.
template <typename Error>
void expect_frame_error(const std::function<void()>& action, std::string_view fragment,
                        std::source_location where = std::source_location::current()) {
  const testing::ScopedTrace trace(where.file_name(), static_cast<int>(where.line()),
                                   "expected " + std::string(fragment));
  EXPECT_THROW(action(), Error);
  try {
    action();
  } catch (const Error& error) {
    EXPECT_EQ(typeid(error), typeid(Error)) << error.what();
    EXPECT_NE(std::string_view(error.what()).find(fragment), std::string_view::npos)
        << "message: " << error.what();
  } catch (...) {
  }
}

// Header offsets as tensor_frame.hpp documents them; the test pins the wire format.
constexpr std::size_t version_at = 4, dtype_at = 6, rank_at = 7, shape_at = 8,
                      payload_bytes_at = 72;

TEST(TensorFrame, HeaderIsFixedSizeAndLittleEndianAtTheDocumentedOffsets) {
  static_assert(frame_header_bytes == 80);
  const tensor_description tensor{element_type::int64, {3, 0x0102030405}};
  const std::uint64_t payload_bytes = 3 * 0x0102030405ull * 8;
  const auto header = encode_frame_header(tensor, payload_bytes);

  EXPECT_EQ(std::string(reinterpret_cast<const char*>(header.data()), 4), "HOFT");
  EXPECT_EQ(header[version_at], std::byte{2});
  EXPECT_EQ(header[version_at + 1], std::byte{0});
  EXPECT_EQ(get_field(header, dtype_at, 1), 4u);
  EXPECT_EQ(get_field(header, rank_at, 1), 2u);
  EXPECT_EQ(get_field(header, shape_at, 8), 3u);
  EXPECT_EQ(header[shape_at + 8], std::byte{0x05}) << "least significant byte first";
  EXPECT_EQ(get_field(header, shape_at + 8, 8), 0x0102030405u);
  for (std::size_t dimension = 2; dimension < transport::max_frame_rank; ++dimension) {
    EXPECT_EQ(get_field(header, shape_at + 8 * dimension, 8), 0u)
        << "unused dimension " << dimension;
  }
  EXPECT_EQ(get_field(header, payload_bytes_at, 8), payload_bytes);
}

TEST(TensorFrame, TrailerFollowsThePayloadWithItsChecksumLittleEndian) {
  static_assert(frame_trailer_bytes == 8);
  const auto trailer = encode_frame_trailer(0x1122334455667788);
  EXPECT_EQ(trailer[0], std::byte{0x88}) << "least significant byte first";
  EXPECT_EQ(get_field(trailer, 0, 8), 0x1122334455667788u);
  EXPECT_EQ(transport::decode_frame_trailer(trailer), 0x1122334455667788u);

  const auto payload = patterned_payload(24);
  const auto frame = encode_frame(small_tensor, payload);
  ASSERT_EQ(frame.size(), frame_header_bytes + 24 + frame_trailer_bytes);
  frame_checksum hash;
  hash.update(payload);
  EXPECT_EQ(get_field(frame, frame_header_bytes + 24, 8), hash.digest());
  EXPECT_EQ(transport::frame_wire_bytes(24), frame.size());
}

TEST(TensorFrame, ChecksumIsXxh3With64Bits) {
  // XXH3_64bits of no input, a published test vector; guards against another hash slipping in.
  EXPECT_EQ(frame_checksum{}.digest(), 0x2D06800538D394C2u);
  const auto frame = encode_frame({element_type::uint8, {0}}, {});
  ASSERT_EQ(frame.size(), frame_header_bytes + frame_trailer_bytes);
  EXPECT_EQ(get_field(frame, frame_header_bytes, 8), 0x2D06800538D394C2u);
}

TEST(TensorFrame, ElementSizes) {
  EXPECT_EQ(element_bytes(element_type::float32), 4u);
  EXPECT_EQ(element_bytes(element_type::float64), 8u);
  EXPECT_EQ(element_bytes(element_type::int32), 4u);
  EXPECT_EQ(element_bytes(element_type::int64), 8u);
  EXPECT_EQ(element_bytes(element_type::uint8), 1u);
  EXPECT_EQ(element_bytes(element_type::float16), 2u);
  EXPECT_EQ(element_bytes(element_type::bfloat16), 2u);
  EXPECT_EQ((tensor_description{element_type::float16, {}}.payload_bytes()), 2u) << "a scalar";
  EXPECT_EQ((tensor_description{element_type::float64, {4, 0, 9}}.payload_bytes()), 0u);
}

// One test over every case rather than TEST_P: CMake 3.25's test discovery would put gtest's
// "# GetParam() = ..." comment into each ctest name.
TEST(TensorFrame, RoundTripsEveryDtypeAndRankIncludingScalarsAndZeroElements) {
  const std::vector<tensor_description> tensors = {
      {element_type::float64, {}},  // rank 0: one element
      {element_type::float32, {5}},
      {element_type::int32, {3, 7}},
      {element_type::int64, {2, 3, 4}},
      {element_type::uint8, {2, 1, 3, 1, 2, 1, 2, 5}},  // the maximum rank
      {element_type::float16, {3, 16, 16}},
      {element_type::bfloat16, {33}},
      {element_type::float32, {4, 0, 8}},  // zero elements
      {element_type::uint8, {0}},
  };
  for (const tensor_description& tensor : tensors) {
    SCOPED_TRACE(std::string(transport::element_type_name(tensor.dtype)) + " of rank " +
                 std::to_string(tensor.shape.size()));
    const auto payload = patterned_payload(tensor.payload_bytes());
    const auto frame = encode_frame(tensor, payload);
    ASSERT_EQ(frame.size(), frame_header_bytes + payload.size() + frame_trailer_bytes);

    const transport::decoded_frame decoded = decode_frame(frame, one_mib);
    EXPECT_EQ(decoded.header.tensor.dtype, tensor.dtype);
    EXPECT_EQ(decoded.header.tensor.shape, tensor.shape);
    EXPECT_EQ(decoded.header.payload_bytes, payload.size());
    EXPECT_EQ(decoded.payload.data(), frame.data() + frame_header_bytes) << "a view, not a copy";
    EXPECT_EQ(std::vector<std::byte>(decoded.payload.begin(), decoded.payload.end()), payload);
    frame_checksum hash;
    hash.update(payload);
    EXPECT_EQ(decoded.checksum, hash.digest());
  }
}

TEST(TensorFrame, StreamedReceiveChecksHeaderThenPayloadInPiecesThenTrailer) {
  // The streaming path: the sender hashes the payload piece by piece as it goes and sends the
  // digest last; the receiver validates the header first, then takes the payload into its own
  // buffer, hashed piece by piece, and checks the trailer. The digest must not depend on the
  // split, so the two sides hash in different pieces.
  const auto payload = patterned_payload(4096 * 4);
  const tensor_description tensor{element_type::float32, {4096}};
  const auto header_bytes = encode_frame_header(tensor, payload.size());
  frame_checksum sender;
  for (std::size_t at = 0; at < payload.size(); at += 1000) {
    sender.update(std::span(payload).subspan(at, std::min<std::size_t>(1000, payload.size() - at)));
  }
  const auto trailer = encode_frame_trailer(sender.digest());
  const auto whole = encode_frame(tensor, payload);
  EXPECT_TRUE(std::equal(trailer.begin(), trailer.end(), whole.end() - frame_trailer_bytes));

  const transport::frame_header header = decode_frame_header(header_bytes, one_mib);
  std::vector<std::byte> destination(header.payload_bytes);
  frame_checksum receiver;
  for (std::size_t at = 0; at < destination.size(); at += 4096) {
    std::copy_n(payload.begin() + static_cast<std::ptrdiff_t>(at), 4096,
                destination.begin() + static_cast<std::ptrdiff_t>(at));
    receiver.update(std::span(destination).subspan(at, 4096));
  }
  EXPECT_NO_THROW(verify_frame_trailer(header, trailer, receiver.digest()));
  EXPECT_EQ(destination, payload);
}

TEST(FrameChecksum, IsMoveOnlyAndKeepsItsStateWhenMoved) {
  static_assert(!std::is_copy_constructible_v<frame_checksum>);
  static_assert(std::is_nothrow_move_constructible_v<frame_checksum>);
  const auto payload = patterned_payload(100);
  frame_checksum first;
  first.update(std::span(payload).first(40));
  frame_checksum moved = std::move(first);
  moved.update(std::span(payload).subspan(40));

  frame_checksum whole;
  whole.update(payload);
  EXPECT_EQ(moved.digest(), whole.digest());
  EXPECT_THROW((void)first.digest(), std::logic_error);  // NOLINT(bugprone-use-after-move)
}

// --- every error type, each from its own malformed frame ---

TEST(TensorFrameErrors, EveryPrefixOfAFrameIsTruncated) {
  const auto frame = small_frame();
  for (std::size_t length = 0; length < frame.size(); ++length) {
    SCOPED_TRACE("prefix of " + std::to_string(length) + " bytes");
    const auto prefix = std::span(frame).first(length);
    const std::string expected =
        length < frame_header_bytes
            ? "frame header needs 80 bytes; got " + std::to_string(length)
            : "frame claims 24 payload bytes and an 8-byte trailer; only " +
                  std::to_string(length - frame_header_bytes) + " bytes follow its header";
    expect_frame_error<frame_truncated>([&] { decode_frame(prefix, one_mib); }, expected);
  }
}

TEST(TensorFrameErrors, AShortHeaderIsTruncated) {
  const auto frame = small_frame();
  expect_frame_error<frame_truncated>(
      [&] { decode_frame_header(std::span(frame).first(79), one_mib); },
      "frame header needs 80 bytes; got 79");
}

TEST(TensorFrameErrors, AHugeClaimUnderTheCapIsTruncatedNotAllocated) {
  // 4 GiB claimed, only the header present: decoding must report it, not try to hold 4 GiB.
  const auto header = encode_frame_header({element_type::uint8, {1ull << 32}}, 1ull << 32);
  expect_frame_error<frame_truncated>(
      [&] { decode_frame(header, 1ull << 33); },
      "frame claims 4294967296 payload bytes and an 8-byte trailer; only 0 bytes follow");
  // Even under a cap that lets payload plus trailer overflow 64 bits.
  const auto most = ~std::uint64_t{0} - 3;
  const auto near_overflow = encode_frame_header({element_type::uint8, {most}}, most);
  expect_frame_error<frame_truncated>([&] { decode_frame(near_overflow, ~std::uint64_t{0}); },
                                      "only 0 bytes follow its header");
  expect_frame_error<transport::frame_too_large>([&] { transport::frame_wire_bytes(most); },
                                                 "overflows a 64-bit length");
}

TEST(TensorFrameErrors, BytesAfterThePayloadAreTrailingBytes) {
  auto frame = small_frame();
  frame.resize(frame.size() + 3, std::byte{0});
  expect_frame_error<transport::frame_trailing_bytes>(
      [&] { decode_frame(frame, one_mib); },
      "frame has 3 bytes after its 24-byte payload and trailer");
}

TEST(TensorFrameErrors, BadMagic) {
  auto frame = small_frame();
  frame[0] = std::byte{'X'};
  expect_frame_error<transport::frame_bad_magic>(
      [&] { decode_frame(frame, one_mib); }, "frame magic is 58 4f 46 54; expected 48 4f 46 54");
}

TEST(TensorFrameErrors, UnsupportedVersion) {
  // Version 1 carried the checksum in its header; a version 1 frame must not be read as this one.
  for (const std::uint64_t version : {1u, 3u, 0xffffu}) {
    auto frame = small_frame();
    set_field(frame, version_at, version, 2);
    expect_frame_error<transport::frame_unsupported_version>(
        [&] { decode_frame(frame, one_mib); }, "frame version " + std::to_string(version) +
                                                   " is not supported; this build reads version 2");
  }
}

TEST(TensorFrameErrors, UnsupportedDtype) {
  for (const std::uint64_t dtype : {0u, 8u, 255u}) {
    auto frame = small_frame();
    set_field(frame, dtype_at, dtype, 1);
    expect_frame_error<transport::frame_unsupported_dtype>(
        [&] { decode_frame_header(frame, one_mib); },
        "frame dtype " + std::to_string(dtype) + " is not supported");
  }
  expect_frame_error<transport::frame_unsupported_dtype>(
      [] { element_bytes(static_cast<element_type>(42)); }, "frame dtype 42 is not supported");
}

TEST(TensorFrameErrors, RankAboveEightIsBadRank) {
  auto frame = small_frame();
  set_field(frame, rank_at, 9, 1);
  expect_frame_error<transport::frame_bad_rank>([&] { decode_frame(frame, one_mib); },
                                                "frame rank 9 exceeds the maximum of 8");
  const tensor_description rank9{element_type::uint8, {1, 1, 1, 1, 1, 1, 1, 1, 1}};
  expect_frame_error<transport::frame_bad_rank>([&] { encode_frame_header(rank9, 1); },
                                                "frame rank 9 exceeds the maximum of 8");
}

TEST(TensorFrameErrors, ByteCountDisagreeingWithShapeIsShapeMismatch) {
  auto frame = small_frame();
  set_field(frame, payload_bytes_at, 20, 8);
  // erase, not resize(size() - 4): GCC 12 under -fsanitize=address (the asan preset) warns about
  // the growing branch of resize, which a shrink never takes.
  frame.erase(frame.end() - 4, frame.end());
  expect_frame_error<frame_shape_mismatch>(
      [&] { decode_frame(frame, one_mib); },
      "frame shape [2, 3] of float32 is 24 bytes, but the frame claims 20 payload bytes");
  expect_frame_error<frame_shape_mismatch>([] { encode_frame_header(small_tensor, 20); },
                                           "is 24 bytes, but the frame claims 20 payload bytes");
}

TEST(TensorFrameErrors, NonZeroDimensionBeyondTheRankIsShapeMismatch) {
  auto frame = small_frame();
  set_field(frame, shape_at + 8 * 5, 7, 8);
  expect_frame_error<frame_shape_mismatch>(
      [&] { decode_frame(frame, one_mib); },
      "frame rank is 2 but shape dimension 5 is 7; dimensions beyond the rank must be 0");
}

TEST(TensorFrameErrors, ShapeWhoseByteCountOverflowsIsShapeMismatch) {
  const tensor_description overflowing{element_type::float32, {1ull << 40, 1ull << 40}};
  expect_frame_error<frame_shape_mismatch>(
      [&] { (void)overflowing.payload_bytes(); },
      "frame shape [1099511627776, 1099511627776] of float32 overflows a 64-bit byte count");

  // Forged on the wire: the product wraps to 0 modulo 2^64, matching a claimed 0 bytes.
  auto frame = encode_frame({element_type::float32, {1, 1}}, patterned_payload(4));
  set_field(frame, shape_at, 1ull << 40, 8);
  set_field(frame, shape_at + 8, 1ull << 22, 8);
  set_field(frame, payload_bytes_at, 0, 8);
  frame.resize(frame_header_bytes);
  expect_frame_error<frame_shape_mismatch>([&] { decode_frame(frame, one_mib); },
                                           "overflows a 64-bit byte count");
}

TEST(TensorFrameErrors, EveryFlippedPayloadBitIsAChecksumMismatch) {
  const auto intact = small_frame();
  for (std::size_t bit = 0; bit < 24 * 8; ++bit) {
    SCOPED_TRACE("payload bit " + std::to_string(bit));
    auto frame = intact;
    frame[frame_header_bytes + bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
    expect_frame_error<transport::frame_checksum_mismatch>([&] { decode_frame(frame, one_mib); },
                                                           "but the trailer claims 0x");
  }
}

TEST(TensorFrameErrors, EveryFlippedTrailerBitIsAChecksumMismatch) {
  const auto intact = small_frame();
  for (std::size_t bit = 0; bit < frame_trailer_bytes * 8; ++bit) {
    SCOPED_TRACE("trailer bit " + std::to_string(bit));
    auto frame = intact;
    frame[frame_header_bytes + 24 + bit / 8] ^= static_cast<std::byte>(1u << (bit % 8));
    expect_frame_error<transport::frame_checksum_mismatch>([&] { decode_frame(frame, one_mib); },
                                                           "but the trailer claims 0x");
  }
}

TEST(TensorFrameErrors, VerifyTrailerNamesBothValues) {
  transport::frame_header header;
  header.payload_bytes = 24;
  const auto trailer = encode_frame_trailer(0xabc);
  expect_frame_error<transport::frame_checksum_mismatch>(
      [&] { verify_frame_trailer(header, trailer, 0xdef); },
      "frame payload checksum is 0x0000000000000def, but the trailer claims 0x0000000000000abc");
  EXPECT_NO_THROW(verify_frame_trailer(header, trailer, 0xabc));
  expect_frame_error<frame_truncated>(
      [&] { verify_frame_trailer(header, std::span(trailer).first(7), 0xabc); },
      "frame trailer needs 8 bytes; got 7");
}

TEST(TensorFrameErrors, PayloadAboveTheCapIsTooLarge) {
  const auto frame = small_frame();
  EXPECT_NO_THROW(decode_frame(frame, 24)) << "the cap itself is allowed";
  expect_frame_error<transport::frame_too_large>([&] { decode_frame(frame, 23); },
                                                 "frame claims 24 payload bytes; the cap is 23");

  const auto header = encode_frame_header({element_type::uint8, {1ull << 32}}, 1ull << 32);
  expect_frame_error<transport::frame_too_large>(
      [&] { decode_frame_header(header, 1ull << 30); },
      "frame claims 4294967296 payload bytes; the cap is 1073741824");
}

TEST(TensorFrameErrors, AllDeriveFromFrameError) {
  auto frame = small_frame();
  frame[3] = std::byte{0};
  EXPECT_THROW(decode_frame(frame, one_mib), transport::frame_error);
  EXPECT_THROW(decode_frame(frame, one_mib), std::runtime_error);
}

}  // namespace
}  // namespace handoff::patterns
