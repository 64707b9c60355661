// frame_reader hashing each landed piece on a thread of its own (payload_hashing::own_thread), as
// it does for a large payload on a machine with cores to spare: the thread's checksum is the one
// the trailer is checked against, so a flipped byte anywhere is still frame_checksum_mismatch and
// an intact frame still arrives bit for bit, through the tensor's landing chunks. Forced here,
// whatever the machine.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "handoff/patterns/tensor_transfer/framing.hpp"

namespace handoff::patterns {
namespace {

constexpr std::uint64_t payload_seed = 0x5EED;
constexpr std::size_t payload_bytes = 9 * frame_chunk_bytes + 12;

// The whole frame as frame_writer makes it.
std::vector<std::byte> whole_frame(const tensor_memory& source) {
  stage_times stages;
  frame_writer writer(source, stages);
  std::vector<std::byte> frame;
  for (auto piece = writer.next(); !piece.empty(); piece = writer.next())
    frame.insert(frame.end(), piece.begin(), piece.end());
  return frame;
}

// Lands `frame` piece by piece where the reader places it, then finishes.
void land(std::span<const std::byte> frame, tensor_memory& destination, payload_hashing hashing) {
  stage_times stages;
  frame_reader reader(destination, stages, frame_piece_bytes, hashing);
  std::size_t offset = 0;
  for (auto place = reader.place(); !place.empty(); place = reader.place()) {
    const std::size_t length = std::min(place.size(), frame.size() - offset);
    std::copy_n(frame.begin() + static_cast<std::ptrdiff_t>(offset), length, place.begin());
    offset += length;
    reader.landed(length);
  }
  reader.finish();
}

class FrameReaderHashing : public testing::TestWithParam<payload_hashing> {
 protected:
  FrameReaderHashing()
      : source_(make_host_tensor(payload_bytes)), destination_(make_host_tensor(payload_bytes)) {
    source_->fill_seeded(payload_seed);
    destination_->poison();
    frame_ = whole_frame(*source_);
  }

  std::unique_ptr<tensor_memory> source_;
  std::unique_ptr<tensor_memory> destination_;
  std::vector<std::byte> frame_;
};

TEST_P(FrameReaderHashing, AnIntactFrameArrivesBitForBit) {
  land(frame_, *destination_, GetParam());
  EXPECT_TRUE(destination_->verify_seeded(payload_seed).passed());
}

TEST_P(FrameReaderHashing, AFlippedPayloadByteIsAChecksumMismatch) {
  const std::size_t places[] = {transport::frame_header_bytes,
                                transport::frame_header_bytes + 4 * frame_chunk_bytes + 5,
                                transport::frame_header_bytes + payload_bytes - 1};
  for (const std::size_t offset : places) {
    SCOPED_TRACE("byte " + std::to_string(offset));
    auto tampered = frame_;
    tampered[offset] ^= std::byte{0x01};
    EXPECT_THROW(land(tampered, *destination_, GetParam()), transport::frame_checksum_mismatch);
  }
}

bool inside(std::span<const std::byte> piece, std::span<const std::byte> range) {
  return !piece.empty() && piece.data() >= range.data() &&
         piece.data() + piece.size() <= range.data() + range.size();
}

// Where the hash runs on its own thread, a large host tensor's payload lands in its landing chunks
// (the hashing thread moves it into the tensor): the tests above then cover that path, reusing each
// chunk more than once. A small tensor has none, and lands in place.
TEST(FrameReaderLanding, ALargeHostTensorsPiecesLandInItsLandingChunks) {
  const auto destination = make_host_tensor(payload_bytes);
  ASSERT_GE(destination->landing().size(), frame_chunk_bytes);
  ASSERT_LT(destination->landing().size(), payload_bytes / 2) << "each chunk must be reused";
  stage_times stages;
  frame_reader reader(*destination, stages, frame_piece_bytes, payload_hashing::own_thread);
  reader.landed(reader.place().size());  // the header
  EXPECT_TRUE(inside(reader.place(), destination->landing()));

  const auto small = make_host_tensor(3 * frame_chunk_bytes);
  EXPECT_TRUE(small->landing().empty());
  frame_reader small_reader(*small, stages, frame_piece_bytes, payload_hashing::own_thread);
  small_reader.landed(small_reader.place().size());
  EXPECT_TRUE(inside(small_reader.place(), small->host_data()));
}

INSTANTIATE_TEST_SUITE_P(tensor_transfer, FrameReaderHashing,
                         testing::Values(payload_hashing::inline_only, payload_hashing::own_thread),
                         [](const auto& hashing) {
                           return hashing.param == payload_hashing::own_thread ? "own_thread"
                                                                               : "inline_only";
                         });

}  // namespace
}  // namespace handoff::patterns
