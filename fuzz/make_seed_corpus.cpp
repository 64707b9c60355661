// Writes the seed corpus for tensor_frame_fuzzer: valid frames of several dtypes and ranks, and
// one malformed frame for each way decoding can fail, so fuzzing starts at every error path.
// Usage: make_seed_corpus DIRECTORY   (ci/fuzz --seed builds and runs it)

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "handoff/transport/tensor_frame.hpp"

namespace {

using namespace handoff::transport;
using frame_bytes = std::vector<std::byte>;

int seeds_written = 0;

// Offsets from the layout table in tensor_frame.hpp.
constexpr std::size_t version_at = 4, dtype_at = 6, rank_at = 7, shape_at = 8,
                      payload_bytes_at = 72;

frame_bytes valid_frame(element_type dtype, std::vector<std::uint64_t> shape) {
  const tensor_description tensor{dtype, std::move(shape)};
  std::vector<std::byte> payload(tensor.payload_bytes());
  for (std::size_t i = 0; i < payload.size(); ++i)
    payload[i] = static_cast<std::byte>(i * 7 + 3);
  return encode_frame(tensor, payload);
}

frame_bytes with_field(frame_bytes frame, std::size_t offset, std::uint64_t value,
                       std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) {
    frame[offset + i] = static_cast<std::byte>((value >> (8 * i)) & 0xff);
  }
  return frame;
}

frame_bytes resized(frame_bytes frame, std::size_t size) {
  frame.resize(size, std::byte{0});
  return frame;
}

void write(const std::filesystem::path& directory, const std::string& name,
           const frame_bytes& bytes) {
  std::ofstream out(directory / name, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + (directory / name).string());
  ++seeds_written;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  const std::filesystem::path directory = argv[1];
  std::filesystem::create_directories(directory);

  const frame_bytes small = valid_frame(element_type::float32, {2, 3});
  write(directory, "valid-float32-2x3", small);
  write(directory, "valid-scalar-float64", valid_frame(element_type::float64, {}));
  write(directory, "valid-int64-2x2x2", valid_frame(element_type::int64, {2, 2, 2}));
  write(directory, "valid-rank8-uint8", valid_frame(element_type::uint8, {1, 2, 1, 2, 1, 2, 1, 3}));
  write(directory, "valid-zero-elements-bfloat16", valid_frame(element_type::bfloat16, {4, 0}));
  write(directory, "valid-float16-33", valid_frame(element_type::float16, {33}));
  write(directory, "valid-int32-4x4", valid_frame(element_type::int32, {4, 4}));

  write(directory, "bad-magic", with_field(small, 0, 0x54464f58, 4));
  // Version 1, the format with the checksum in the header, is no longer read.
  write(directory, "bad-version", with_field(small, version_at, 1, 2));
  write(directory, "bad-dtype", with_field(small, dtype_at, 8, 1));
  write(directory, "bad-rank", with_field(small, rank_at, 9, 1));
  write(directory, "nonzero-unused-dimension", with_field(small, shape_at + 8 * 5, 7, 8));
  write(directory, "shape-disagrees-with-bytes", with_field(small, payload_bytes_at, 20, 8));
  const frame_bytes overflowing = with_field(small, shape_at, std::uint64_t{1} << 40, 8);
  write(directory, "shape-overflows",
        with_field(overflowing, shape_at + 8, std::uint64_t{1} << 40, 8));
  write(directory, "claims-beyond-cap", with_field(small, payload_bytes_at, 1ull << 32, 8));
  frame_bytes flipped = small;
  flipped[frame_header_bytes + 5] ^= std::byte{0x10};
  write(directory, "checksum-mismatch", flipped);
  frame_bytes flipped_trailer = small;
  flipped_trailer[small.size() - 2] ^= std::byte{0x01};
  write(directory, "trailer-mismatch", flipped_trailer);
  write(directory, "truncated-header", resized(small, frame_header_bytes - 1));
  write(directory, "truncated-payload", resized(small, frame_header_bytes + 10));
  write(directory, "truncated-trailer", resized(small, small.size() - 1));
  write(directory, "trailing-bytes", resized(small, small.size() + 3));
  std::printf("make_seed_corpus: wrote %d seeds to %s\n", seeds_written, directory.c_str());
  return 0;
}
