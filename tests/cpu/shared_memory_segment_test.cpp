#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::patterns {

using transport::describe_byte_count;
using transport::shared_memory_bad_descriptor;
using transport::shared_memory_error;
using transport::shared_memory_segment;

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

TEST(SharedMemorySegment, AShareableSegmentKeepsItsDescriptorAndAttachMapsTheSamePages) {
  auto segment = shared_memory_segment::create_shareable(3 * 4096, this_process_purpose());
  ASSERT_GE(segment.descriptor(), 0);
  EXPECT_EQ(::fcntl(segment.descriptor(), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
      << "only a deliberate hand-off may pass it to a child";
  EXPECT_TRUE(segments_of_this_process().empty()) << "unlinked at creation, like a private one";
  auto attached = shared_memory_segment::attach(segment.descriptor(), 3 * 4096);
  ASSERT_EQ(attached.bytes().size(), 3U * 4096);
  EXPECT_NE(attached.descriptor(), segment.descriptor()) << "attach keeps a duplicate of its own";
  EXPECT_NE(attached.bytes().data(), segment.bytes().data());
  segment.bytes()[5000] = std::byte{42};
  EXPECT_EQ(attached.bytes()[5000], std::byte{42});
  attached.bytes()[0] = std::byte{7};
  EXPECT_EQ(segment.bytes()[0], std::byte{7});
  EXPECT_EQ(shared_memory_segment::create_private(4096).descriptor(), -1);
}

TEST(SharedMemorySegment, AttachRejectsWhatIsNotASegmentOfTheExpectedSize) {
  auto segment = shared_memory_segment::create_shareable(4096, this_process_purpose());
  try {
    shared_memory_segment::attach(segment.descriptor(), 8192);
    ADD_FAILURE() << "a segment smaller than expected was attached";
  } catch (const shared_memory_bad_descriptor& error) {
    EXPECT_NE(std::string(error.what()).find("4096 bytes"), std::string::npos) << error.what();
  }
  EXPECT_THROW(shared_memory_segment::attach(-1, 1), shared_memory_bad_descriptor);
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  EXPECT_THROW(shared_memory_segment::attach(pipe_ends[0], 1), shared_memory_bad_descriptor);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);
  const int read_only = ::open(("/proc/self/fd/" + std::to_string(segment.descriptor())).c_str(),
                               O_RDONLY | O_CLOEXEC);
  ASSERT_GE(read_only, 0);
  EXPECT_THROW(shared_memory_segment::attach(read_only, 1), shared_memory_bad_descriptor);
  ::close(read_only);
}

TEST(SharedMemorySegment, AShareableSegmentTooLargeIsATypedErrorNamingTheSize) {
  try {
    shared_memory_segment::create_shareable(std::size_t{1} << 50, this_process_purpose());
    FAIL() << "a 1 PiB segment was created";
  } catch (const transport::shared_memory_full& error) {
    EXPECT_NE(std::string(error.what()).find("1125899906842624 bytes (1 PiB)"), std::string::npos)
        << error.what();
  }
  EXPECT_THROW(shared_memory_segment::create_shareable(~std::size_t{0}, this_process_purpose()),
               transport::shared_memory_too_large);
  EXPECT_THROW(shared_memory_segment::create_shareable(0, this_process_purpose()),
               shared_memory_error);
  EXPECT_TRUE(segments_of_this_process().empty());
}

TEST(SharedMemorySegment, ByteCountsAreDescribedExactlyAndReadably) {
  EXPECT_EQ(describe_byte_count(0), "0 bytes (0 B)");
  EXPECT_EQ(describe_byte_count(4096), "4096 bytes (4 KiB)");
  EXPECT_EQ(describe_byte_count(std::size_t{3} << 29), "1610612736 bytes (1.5 GiB)");
}

TEST(SharedMemorySegment, NamesAreUnpredictable) {
  const auto first = transport::unpredictable_segment_name("test");
  const auto second = transport::unpredictable_segment_name("test");
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
