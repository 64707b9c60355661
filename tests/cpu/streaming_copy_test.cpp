#include "handoff/transport/streaming_copy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <vector>

namespace handoff::transport {
namespace {

// Every size around the streamed threshold, the 64-byte lines and the 16 KiB steps of four spans
// (whole steps, a step and some lines, lines and bytes after the last step), at every misalignment
// of source and destination against 16 and 64 bytes, copies exactly its bytes and touches none
// beside them.
TEST(StreamingCopy, CopiesExactlyTheBytesAtAnyAlignmentAndSize) {
  constexpr std::size_t step = 4 * 4096;
  const std::vector<std::size_t> sizes = {0,
                                          1,
                                          15,
                                          64,
                                          65535,
                                          65536,
                                          65536 + 17,
                                          5 * step + 3 * 64 + 5,
                                          6 * step - 1,
                                          (1 << 20) + 3,
                                          (4 << 20),
                                          (4 << 20) + step + 64 + 1};
  std::vector<unsigned char> source((4 << 20) + step + 256);
  std::iota(source.begin(), source.end(), static_cast<unsigned char>(7));
  for (const std::size_t size : sizes) {
    for (const std::size_t source_offset : {0, 3, 16, 63}) {
      for (const std::size_t destination_offset : {0, 1, 8, 15, 48, 63}) {
        std::vector<unsigned char> destination(size + 64, 0xEE);
        copy_streaming(destination.data() + destination_offset, source.data() + source_offset,
                       size);
        const unsigned char* copied = destination.data() + destination_offset;
        const unsigned char* end = destination.data() + destination.size();
        EXPECT_TRUE(std::equal(copied, copied + size, source.data() + source_offset))
            << "size " << size << ", source offset " << source_offset << ", destination offset "
            << destination_offset;
        const auto untouched = [](unsigned char byte) { return byte == 0xEE; };
        EXPECT_TRUE(
            std::all_of(static_cast<const unsigned char*>(destination.data()), copied, untouched));
        EXPECT_TRUE(std::all_of(copied + size, end, untouched))
            << "size " << size << ": a byte past the copy was written";
      }
    }
  }
}

}  // namespace
}  // namespace handoff::transport
