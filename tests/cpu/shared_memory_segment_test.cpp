#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "handoff/patterns/shared_memory_segment.hpp"

namespace handoff::patterns {
namespace {

// Segments named for this test process only, so tests running beside it cannot disturb the count.
std::string this_process_purpose() {
  return "test-" + std::to_string(::getpid());
}

std::set<std::string> segments_of_this_process() {
  const std::string prefix = "handoff-" + this_process_purpose() + "-";
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm")) {
    const auto name = entry.path().filename().string();
    if (name.starts_with(prefix)) names.insert(name);
  }
  return names;
}

TEST(SharedMemorySegment, WritableAndLeavesNothingInDevShm) {
  {
    auto segment = shared_memory_segment::create_private(1 << 20, this_process_purpose());
    ASSERT_EQ(segment.bytes().size(), 1u << 20);
    segment.bytes()[0] = std::byte{7};
    segment.bytes()[(1 << 20) - 1] = std::byte{9};
    EXPECT_EQ(segment.bytes()[0], std::byte{7});
    EXPECT_TRUE(segments_of_this_process().empty()) << "a private segment is unlinked once mapped";
  }
  EXPECT_TRUE(segments_of_this_process().empty());
}

TEST(SharedMemorySegment, AFailedCreationLeavesNothingInDevShm) {
  EXPECT_THROW(shared_memory_segment::create_private(std::size_t{1} << 50, this_process_purpose()),
               shared_memory_error);
  EXPECT_TRUE(segments_of_this_process().empty());
}

TEST(SharedMemorySegment, TooLargeIsATypedErrorNotACrash) {
  // Far beyond any /dev/shm: the reservation fails up front instead of a SIGBUS on first touch.
  EXPECT_THROW(shared_memory_segment::create_private(std::size_t{1} << 50), shared_memory_error);
}

TEST(SharedMemorySegment, NamesAreUnpredictable) {
  const auto first = unpredictable_segment_name("test");
  const auto second = unpredictable_segment_name("test");
  EXPECT_NE(first, second);
  EXPECT_TRUE(first.starts_with("/handoff-test-"));
  EXPECT_GE(first.size(), std::string("/handoff-test-").size() + 32);
}

TEST(SharedMemorySegment, ZeroBytesIsEmpty) {
  auto segment = shared_memory_segment::create_private(0);
  EXPECT_TRUE(segment.bytes().empty());
}

}  // namespace
}  // namespace handoff::patterns
