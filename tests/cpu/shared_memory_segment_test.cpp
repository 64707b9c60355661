#include "handoff/transport/shared_memory_segment.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "support/leak_checks.hpp"

namespace handoff::patterns {

using transport::describe_byte_count;
using transport::shared_memory_bad_descriptor;
using transport::shared_memory_error;
using transport::shared_memory_segment;

namespace {

// Segments named for this test process only.
std::string this_process_purpose() {
  return "test-" + std::to_string(::getpid());
}

std::set<std::string> segments_of_this_process() {
  return leak_checks::held_segments_containing("handoff-" + this_process_purpose() + "-");
}

// What ftruncate does to fd: 0, or the errno it failed with.
int truncate_error(int fd, off_t size) {
  return ::ftruncate(fd, size) == 0 ? 0 : errno;
}

TEST(SharedMemorySegment, WritableAndFreedWithItsLastHolder) {
  {
    auto segment = shared_memory_segment::create_private(1 << 20, this_process_purpose());
    ASSERT_EQ(segment.bytes().size(), 1u << 20);
    segment.bytes()[0] = std::byte{7};
    segment.bytes()[(1 << 20) - 1] = std::byte{9};
    EXPECT_EQ(segment.bytes()[0], std::byte{7});
    EXPECT_EQ(segments_of_this_process().size(), 1u) << "held by its mapping alone";
  }
  EXPECT_TRUE(segments_of_this_process().empty());
}

TEST(SharedMemorySegment, AFailedCreationHoldsNothing) {
  EXPECT_THROW(shared_memory_segment::create_private(std::size_t{1} << 50, this_process_purpose()),
               shared_memory_error);
  EXPECT_TRUE(segments_of_this_process().empty());
}

TEST(SharedMemorySegment, TooLargeIsATypedErrorNotACrash) {
  // Far beyond any machine: refused up front, before a page is taken, instead of the OOM killer
  // or a SIGBUS on first touch.
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(shared_memory_segment::create_private(std::size_t{1} << 50), shared_memory_error);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(SharedMemorySegment, AShareableSegmentKeepsItsDescriptorAndAttachMapsTheSamePages) {
  auto segment = shared_memory_segment::create_shareable(3 * 4096, this_process_purpose());
  ASSERT_GE(segment.descriptor(), 0);
  EXPECT_EQ(::fcntl(segment.descriptor(), F_GETFD) & FD_CLOEXEC, FD_CLOEXEC)
      << "only a deliberate hand-off may pass it to a child";
  struct stat status {};
  ASSERT_EQ(::fstat(segment.descriptor(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0600u) << "only its owner may open it again";
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

TEST(SharedMemorySegment, NoHolderCanShrinkOrGrowIt) {
  auto segment = shared_memory_segment::create_shareable(3 * 4096, this_process_purpose());
  const int fd = segment.descriptor();
  EXPECT_EQ(truncate_error(fd, 0), EPERM) << "shrunk to nothing";
  EXPECT_EQ(truncate_error(fd, 4096), EPERM) << "shrunk by two pages";
  EXPECT_EQ(truncate_error(fd, 4 * 4096), EPERM) << "grown";
  // Nor through a descriptor of its own, as another process could open it: the seals belong to
  // the file, not to a descriptor.
  const int reopened = ::open(("/proc/self/fd/" + std::to_string(fd)).c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(reopened, 0);
  EXPECT_EQ(truncate_error(reopened, 0), EPERM);
  // And the seals themselves are sealed: none can be added (or taken away).
  EXPECT_NE(::fcntl(reopened, F_ADD_SEALS, F_SEAL_WRITE), 0);
  EXPECT_EQ(errno, EPERM);
  ::close(reopened);
  struct stat status {};
  ASSERT_EQ(::fstat(fd, &status), 0);
  EXPECT_EQ(status.st_size, 3 * 4096);
  // Every page of the mapping is still there: its last byte is no SIGBUS.
  segment.bytes().back() = std::byte{1};
  EXPECT_EQ(segment.bytes().back(), std::byte{1});
}

TEST(SharedMemorySegment, AttachRefusesMemoryWhoseSizeIsNotSealed) {
  const auto expect_refused = [](int fd, const char* what) {
    try {
      shared_memory_segment::attach(fd, 1);
      ADD_FAILURE() << what << " was attached";
    } catch (const shared_memory_bad_descriptor& error) {
      EXPECT_NE(std::string(error.what()).find("seal"), std::string::npos) << error.what();
    }
  };
  // A memory file anyone holding it may shrink: what a peer could hand over instead of a segment.
  const int unsealed = ::memfd_create("handoff-unsealed", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  ASSERT_GE(unsealed, 0);
  ASSERT_EQ(::ftruncate(unsealed, 4096), 0);
  expect_refused(unsealed, "an unsealed memory file");
  ASSERT_EQ(::fcntl(unsealed, F_ADD_SEALS, F_SEAL_SHRINK), 0);
  expect_refused(unsealed, "a memory file sealed against shrinking only");
  const int unsealable = ::memfd_create("handoff-unsealable", MFD_CLOEXEC);
  ASSERT_GE(unsealable, 0);
  ASSERT_EQ(::ftruncate(unsealable, 4096), 0);
  expect_refused(unsealable, "a memory file that cannot be sealed");
  // A POSIX segment in /dev/shm, as segments were made before they were sealed.
  const std::string name = "/handoff-" + this_process_purpose() + "-posix";
  const int posix = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
  ASSERT_GE(posix, 0);
  ::shm_unlink(name.c_str());
  ASSERT_EQ(::ftruncate(posix, 4096), 0);
  expect_refused(posix, "a POSIX shared-memory file");
  for (const int fd : {unsealed, unsealable, posix})
    ::close(fd);
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
    const std::string message = error.what();
    EXPECT_NE(message.find("1125899906842624 bytes (1 PiB)"), std::string::npos) << message;
    EXPECT_NE(message.find("this machine can give"), std::string::npos) << message;
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

TEST(SharedMemorySegment, NamesAreUnpredictableAndWithinTheKernelsLimit) {
  const auto first = transport::unpredictable_segment_name("test");
  const auto second = transport::unpredictable_segment_name("test");
  EXPECT_NE(first, second);
  EXPECT_TRUE(first.starts_with("handoff-test-"));
  EXPECT_EQ(first.size(), std::string("handoff-test-").size() + 32);
  const auto long_name = transport::unpredictable_segment_name(std::string(400, 'p'));
  EXPECT_EQ(long_name.size(), 249u);
  EXPECT_TRUE(long_name.starts_with("handoff-ppp"));
  // And such a name is accepted.
  EXPECT_NO_THROW(shared_memory_segment::create_private(4096, std::string(400, 'p')));
}

TEST(SharedMemorySegment, ZeroBytesIsEmpty) {
  auto segment = shared_memory_segment::create_private(0);
  EXPECT_TRUE(segment.bytes().empty());
}

}  // namespace
}  // namespace handoff::patterns
