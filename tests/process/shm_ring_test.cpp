// Conformance of shm_ring across real spawned processes: FIFO order and intact data for many more
// messages than slots, a page-aligned slot region, close, killed peers, and bad geometry or
// descriptors.

#include "handoff/transport/channels/shm_ring.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "channel_test_support.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns {

using transport::channel_attach_error;
using transport::channel_closed;
using transport::channel_corrupted;
using transport::channel_geometry_error;
using transport::channel_usage_error;
using transport::coordinator_connection;
using transport::deadline_clock;
using transport::shared_memory_segment;
using transport::shm_ring;
using transport::worker_pool;

namespace {

using namespace channel_testing;

// A worker finds the ring passed as worker_launch::extra_fds here, right after its channel.
constexpr int ring_fd_in_worker = 4;

// Message number i fills a varying part of its slot with bytes that depend on i and the position,
// so a slot read out of order, too early or half-written cannot pass.
std::uint64_t used_bytes_of(std::uint64_t number, std::size_t slot_bytes) {
  return 1 + (number * 7919) % slot_bytes;
}

std::byte content_byte(std::uint64_t number, std::size_t position) {
  return std::byte((number * 13 + position * 7 + (position >> 9)) & 0xff);
}

void fill_message(std::span<std::byte> slot, std::uint64_t number) {
  const auto used = used_bytes_of(number, slot.size());
  for (std::size_t position = 0; position < used; ++position) {
    slot[position] = content_byte(number, position);
  }
}

// Whether a received slot is exactly message `number`; the first difference goes to the log.
bool holds_message(const shm_ring& ring, const shm_ring::filled& got, std::uint64_t number) {
  if (got.tag != number) {
    ADD_FAILURE() << "expected message " << number << ", got the one tagged " << got.tag;
    return false;
  }
  if (got.used_bytes != used_bytes_of(number, ring.slot_bytes())) {
    ADD_FAILURE() << "message " << number << " has " << got.used_bytes << " bytes";
    return false;
  }
  const auto slot = ring.slot(got.index);
  for (std::size_t position = 0; position < got.used_bytes; ++position) {
    if (slot[position] != content_byte(number, position)) {
      ADD_FAILURE() << "message " << number << " differs at byte " << position;
      return false;
    }
  }
  return true;
}

// ---- worker roles -------------------------------------------------------------------------

// Publishes `count` messages (or endlessly for count 0), says "ready" after the first, and closes
// the ring after the last.
int ring_producer(std::span<const std::string> arguments) {
  const auto count = std::stoull(argument(arguments, 0));
  auto channel = coordinator_connection();
  auto ring = shm_ring::attach(ring_fd_in_worker);
  for (std::uint64_t number = 0; count == 0 || number < count; ++number) {
    const auto index = ring.acquire_free(in(10s), coordinator_watch());
    fill_message(ring.slot(index), number);
    ring.publish(index, used_bytes_of(number, ring.slot_bytes()), number);
    if (number == 0) channel.send_record(std::uint32_t{1}, in(10s));
  }
  ring.close();
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("ring_producer", ring_producer);

// Checks `count` messages (or endlessly for count 0), then expects the ring to be closed; reports
// how many were intact, and whether the close was seen.
int ring_consumer(std::span<const std::string> arguments) {
  const auto count = std::stoull(argument(arguments, 0));
  auto channel = coordinator_connection();
  auto ring = shm_ring::attach(ring_fd_in_worker);
  channel.send_record(std::uint32_t{1}, in(10s));
  std::uint64_t intact = 0;
  for (std::uint64_t number = 0; count == 0 || number < count; ++number) {
    const auto got = ring.acquire_filled(in(10s), coordinator_watch());
    if (holds_message(ring, got, number)) ++intact;
    ring.release(got.index);
  }
  std::uint64_t saw_close = 0;
  try {
    ring.acquire_filled(in(10s), coordinator_watch());
  } catch (const channel_closed&) {
    saw_close = 1;
  }
  channel.send_record(intact, in(10s));
  channel.send_record(saw_close, in(10s));
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("ring_consumer", ring_consumer);

// Waits for a filled slot that never comes; exits 0 only if a close ends the wait.
int ring_close_waiter(std::span<const std::string>) {
  auto channel = coordinator_connection();
  auto ring = shm_ring::attach(ring_fd_in_worker);
  channel.send_record(std::uint32_t{1}, in(10s));
  try {
    ring.acquire_filled(in(20s), coordinator_watch());
  } catch (const channel_closed&) {
    return 0;
  }
  return 1;
}
HANDOFF_WORKER_ROLE("ring_close_waiter", ring_close_waiter);

// A hostile consumer: attaches the ring, then tries to shrink its segment to nothing and to one
// page, through its inherited descriptor and through one it opens itself, and reports what each
// ftruncate got (0 for success, else its errno).
int ring_shrinker(std::span<const std::string>) {
  auto channel = coordinator_connection();
  auto ring = shm_ring::attach(ring_fd_in_worker);
  const auto error_of = [](int fd, off_t size) {
    return static_cast<std::uint32_t>(::ftruncate(fd, size) == 0 ? 0 : errno);
  };
  channel.send_record(error_of(ring_fd_in_worker, 0), in(10s));
  channel.send_record(error_of(ring_fd_in_worker, 4096), in(10s));
  const int reopened =
      ::open(("/proc/self/fd/" + std::to_string(ring_fd_in_worker)).c_str(), O_RDWR | O_CLOEXEC);
  channel.send_record(reopened < 0 ? static_cast<std::uint32_t>(errno) : error_of(reopened, 0),
                      in(10s));
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("ring_shrinker", ring_shrinker);

class ShmRing : public leaves_no_segment_held {};

// ---- geometry ------------------------------------------------------------------------------

TEST_F(ShmRing, SlotsArePageAlignedWholePagesForHostRegistration) {
  auto ring =
      shm_ring::create({.slot_count = 3, .slot_bytes = 5000, .purpose = test_purpose("geo")});
  EXPECT_EQ(ring.slot_count(), 3U);
  EXPECT_EQ(ring.slot_bytes(), 8192U) << "rounded up to whole pages";
  const auto region = ring.slot_region();
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(region.data()) % 4096, 0U);
  EXPECT_EQ(region.size(), 3U * 8192U);
  for (std::size_t index = 0; index < 3; ++index) {
    EXPECT_EQ(ring.slot(index).data(), region.data() + index * 8192);
    EXPECT_EQ(ring.slot(index).size(), 8192U);
  }
  EXPECT_THROW(ring.slot(3), channel_usage_error);
  // The whole region is writable, and a second mapping of the segment sees the same bytes.
  std::memset(region.data(), 0x5a, region.size());
  auto attached = shm_ring::attach(ring.descriptor());
  EXPECT_EQ(attached.slot_bytes(), 8192U);
  EXPECT_EQ(attached.purpose(), ring.purpose());
  EXPECT_EQ(attached.slot(2)[8191], std::byte{0x5a});
  EXPECT_EQ(segments_named_by_this_process().size(), 1U) << "one segment, held while in use";
}

TEST_F(ShmRing, BadGeometryIsATypedError) {
  const auto purpose = test_purpose("bad-geometry");
  EXPECT_THROW(shm_ring::create({.slot_count = 0, .purpose = purpose}), channel_geometry_error);
  EXPECT_THROW(shm_ring::create({.slot_count = 2, .slot_bytes = 0, .purpose = purpose}),
               channel_geometry_error);
  EXPECT_THROW(shm_ring::create(
                   {.slot_count = std::size_t{1} << 40, .slot_bytes = 4096, .purpose = purpose}),
               channel_geometry_error);
  EXPECT_THROW(shm_ring::create({.slot_count = 4, .slot_bytes = SIZE_MAX / 2, .purpose = purpose}),
               channel_geometry_error)
      << "a size that overflows";
}

TEST_F(ShmRing, ARingLargerThanTheMachineCanGiveIsATypedErrorNamingTheSize) {
  // 4 slots of 256 TiB: 1 PiB, far beyond what any machine can give. A clear error at creation,
  // never a SIGBUS.
  try {
    shm_ring::create(
        {.slot_count = 4, .slot_bytes = std::size_t{1} << 48, .purpose = test_purpose("huge")});
    FAIL() << "a 1 PiB ring was created";
  } catch (const transport::shared_memory_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("PiB"), std::string::npos) << message;
    EXPECT_NE(message.find("test-"), std::string::npos) << "names the ring: " << message;
  }
}

// ---- across processes ----------------------------------------------------------------------

TEST_F(ShmRing, FifoAndIntactFromAProducerProcessForManyMoreMessagesThanSlots) {
  constexpr std::uint64_t messages = 3000;
  auto ring = shm_ring::create(
      {.slot_count = 4, .slot_bytes = 16 << 10, .purpose = test_purpose("from-worker")});
  worker_pool pool("producer", 1,
                   {.role = "ring_producer",
                    .arguments = {std::to_string(messages)},
                    .extra_fds = {ring.descriptor()}});
  const transport::peer_watch alive = [&] { pool.check_alive(); };
  for (std::uint64_t number = 0; number < messages; ++number) {
    const auto got = ring.acquire_filled(in(10s), alive);
    ASSERT_TRUE(holds_message(ring, got, number));
    ring.release(got.index);
  }
  // The producer closed after its last message: the end of the stream, not a timeout.
  EXPECT_THROW(ring.acquire_filled(in(5s), alive), channel_closed);
  pool.shutdown_expecting_success(10s);
}

TEST_F(ShmRing, FifoAndIntactToAConsumerProcessForManyMoreMessagesThanSlots) {
  constexpr std::uint64_t messages = 3000;
  auto ring = shm_ring::create(
      {.slot_count = 3, .slot_bytes = 16 << 10, .purpose = test_purpose("to-worker")});
  worker_pool pool("consumer", 1,
                   {.role = "ring_consumer",
                    .arguments = {std::to_string(messages)},
                    .extra_fds = {ring.descriptor()}});
  const transport::peer_watch alive = [&] { pool.check_alive(); };
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  // Two slots held at once, published in order: the pipelined way a GPU producer works.
  for (std::uint64_t number = 0; number < messages; number += 2) {
    const auto first = ring.acquire_free(in(10s), alive);
    const auto second = ring.acquire_free(in(10s), alive);
    EXPECT_NE(first, second);
    fill_message(ring.slot(first), number);
    fill_message(ring.slot(second), number + 1);
    ring.publish(first, used_bytes_of(number, ring.slot_bytes()), number);
    ring.publish(second, used_bytes_of(number + 1, ring.slot_bytes()), number + 1);
  }
  ring.close();
  EXPECT_EQ(pool.channel(0).receive_record<std::uint64_t>(in(10s)), messages);
  EXPECT_EQ(pool.channel(0).receive_record<std::uint64_t>(in(10s)), 1U) << "close was not seen";
  pool.shutdown_expecting_success(10s);
}

TEST_F(ShmRing, CloseWakesAWaiterInAnotherProcessWithChannelClosed) {
  auto ring = shm_ring::create(
      {.slot_count = 2, .slot_bytes = 4096, .purpose = test_purpose("close-remote")});
  worker_pool pool("waiter", 1, {.role = "ring_close_waiter", .extra_fds = {ring.descriptor()}});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  std::this_thread::sleep_for(100ms);  // into its wait
  const auto closed_at = deadline_clock::now();
  ring.close();
  // The waiter's deadline is 20 s away; it exits 0 only when the close woke it.
  pool.shutdown_expecting_success(5s);
  EXPECT_LT(deadline_clock::now() - closed_at, 2s);
}

TEST_F(ShmRing, CloseWakesAWaitingProducerAndLaterCallsToo) {
  auto ring = shm_ring::create(
      {.slot_count = 1, .slot_bytes = 4096, .purpose = test_purpose("close-local")});
  ring.publish(ring.acquire_free(in(1s)), 1, 0);  // now full
  std::thread closer([&] {
    std::this_thread::sleep_for(100ms);
    ring.close();
  });
  const auto start = deadline_clock::now();
  EXPECT_THROW(ring.acquire_free(start + 10s), channel_closed);
  EXPECT_LT(deadline_clock::now() - start, 2s);
  closer.join();
  EXPECT_TRUE(ring.closed());
  EXPECT_THROW(ring.acquire_free(in(1s)), channel_closed);
  // A consumer still drains what was published before the close, then sees the close.
  const auto last = ring.acquire_filled(in(1s));
  EXPECT_EQ(last.used_bytes, 1U);
  ring.release(last.index);
  EXPECT_THROW(ring.acquire_filled(in(1s)), channel_closed);
}

// ---- killed peers --------------------------------------------------------------------------

TEST_F(ShmRing, KilledProducerFailsTheConsumerWithinItsDeadline) {
  auto ring = shm_ring::create(
      {.slot_count = 4, .slot_bytes = 4096, .purpose = test_purpose("kill-producer")});
  worker_pool pool("producer", 1,
                   {.role = "ring_producer", .arguments = {"0"}, .extra_fds = {ring.descriptor()}});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  const auto killed_at = deadline_clock::now();
  // What it published before dying is still intact and in order; then the death is reported.
  std::uint64_t number = 0;
  try {
    while (true) {
      const auto got = ring.acquire_filled(killed_at + 3s, [&] { pool.check_alive(); });
      ASSERT_TRUE(holds_message(ring, got, number));
      ring.release(got.index);
      ++number;
    }
  } catch (const transport::worker_died& death) {
    EXPECT_FALSE(death.status().exited) << death.what();
  }
  EXPECT_GE(number, 1U);
  EXPECT_LT(deadline_clock::now() - killed_at, 2s);
}

TEST_F(ShmRing, KilledConsumerFailsTheProducerWithinItsDeadline) {
  auto ring = shm_ring::create(
      {.slot_count = 4, .slot_bytes = 4096, .purpose = test_purpose("kill-consumer")});
  worker_pool pool("consumer", 1,
                   {.role = "ring_consumer", .arguments = {"0"}, .extra_fds = {ring.descriptor()}});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  const auto killed_at = deadline_clock::now();
  try {
    for (std::uint64_t number = 0;; ++number) {
      const auto index = ring.acquire_free(killed_at + 3s, [&] { pool.check_alive(); });
      fill_message(ring.slot(index), number);
      ring.publish(index, used_bytes_of(number, ring.slot_bytes()), number);
    }
  } catch (const transport::worker_died& death) {
    EXPECT_FALSE(death.status().exited) << death.what();
  }
  EXPECT_LT(deadline_clock::now() - killed_at, 2s);
}

TEST_F(ShmRing, WithoutAPeerWatchAWaitEndsAtItsDeadlineNamingTheRingAndTheWait) {
  auto ring =
      shm_ring::create({.slot_count = 2, .slot_bytes = 4096, .purpose = test_purpose("timeouts")});
  auto start = deadline_clock::now();
  try {
    ring.acquire_filled(start + 200ms);
    ADD_FAILURE() << "an empty ring delivered a slot";
  } catch (const transport::deadline_exceeded& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(ring.purpose()), std::string::npos) << message;
    EXPECT_NE(message.find("filled slot"), std::string::npos) << message;
  }
  EXPECT_GE(deadline_clock::now() - start, 200ms);
  EXPECT_LT(deadline_clock::now() - start, 1s);

  ring.publish(ring.acquire_free(in(1s)), 0, 0);
  ring.publish(ring.acquire_free(in(1s)), 0, 1);
  start = deadline_clock::now();
  try {
    ring.acquire_free(start + 200ms);
    ADD_FAILURE() << "a full ring handed out a slot";
  } catch (const transport::deadline_exceeded& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(ring.purpose()), std::string::npos) << message;
    EXPECT_NE(message.find("free slot"), std::string::npos) << message;
  }
  EXPECT_GE(deadline_clock::now() - start, 200ms);
  EXPECT_LT(deadline_clock::now() - start, 1s);
}

// ---- misuse and bad descriptors -------------------------------------------------------------

TEST_F(ShmRing, AWorkerCannotShrinkTheSegmentUnderTheCoordinator) {
  // Before the segments were sealed, the shrink succeeded and the coordinator's next touch of a
  // slot beyond the new end was a SIGBUS.
  auto ring = shm_ring::create(
      {.slot_count = 4, .slot_bytes = 64 << 10, .purpose = test_purpose("shrink")});
  worker_pool pool("shrinker", 1, {.role = "ring_shrinker", .extra_fds = {ring.descriptor()}});
  const char* attempts[] = {"to nothing", "to one page", "through a descriptor of its own"};
  bool all_refused = true;
  for (const char* attempt : attempts) {
    const auto error = pool.channel(0).receive_record<std::uint32_t>(in(10s));
    EXPECT_EQ(error, static_cast<std::uint32_t>(EPERM))
        << "shrinking " << attempt << ": " << (error == 0 ? "it worked" : std::strerror(error));
    all_refused = all_refused && error == EPERM;
  }
  ASSERT_TRUE(all_refused) << "the segment was shrunk: touching its slots now would be a SIGBUS";
  // Every slot, to its last byte, still works.
  for (std::uint64_t number = 0; number < ring.slot_count(); ++number) {
    const auto index = ring.acquire_free(in(1s));
    std::memset(ring.slot(index).data(), static_cast<int>(number + 1), ring.slot_bytes());
    ring.publish(index, ring.slot_bytes(), number);
    const auto got = ring.acquire_filled(in(1s));
    EXPECT_EQ(got.tag, number);
    EXPECT_EQ(ring.slot(got.index).back(), std::byte(number + 1));
    ring.release(got.index);
  }
  pool.shutdown_expecting_success(10s);
}

TEST_F(ShmRing, OutOfOrderOrOversizedPublishAndReleaseAreUsageErrors) {
  auto ring =
      shm_ring::create({.slot_count = 3, .slot_bytes = 4096, .purpose = test_purpose("usage")});
  EXPECT_THROW(ring.publish(0, 1), channel_usage_error) << "nothing was acquired";
  const auto first = ring.acquire_free(in(1s));
  const auto second = ring.acquire_free(in(1s));
  EXPECT_THROW(ring.publish(second, 1), channel_usage_error) << "published before the first";
  EXPECT_THROW(ring.publish(first, 4097), channel_usage_error) << "more bytes than the slot";
  ring.publish(first, 4096, 10);
  ring.publish(second, 0, 11);
  EXPECT_THROW(ring.release(0), channel_usage_error) << "nothing was taken";
  const auto got_first = ring.acquire_filled(in(1s));
  const auto got_second = ring.acquire_filled(in(1s));
  EXPECT_EQ(got_first.tag, 10U);
  EXPECT_EQ(got_first.used_bytes, 4096U);
  EXPECT_EQ(got_second.tag, 11U);
  EXPECT_THROW(ring.release(got_second.index), channel_usage_error) << "released out of order";
  ring.release(got_first.index);
  ring.release(got_second.index);
}

// Found by fuzz/shm_ring_slots_fuzzer.cpp: a peer that advanced this side's own counter (published
// for a producer, released for a consumer) made the next publish or release a channel_usage_error,
// blaming this process for what the peer wrote. It is channel_corrupted.
TEST_F(ShmRing, APeerThatAdvancesThisSidesCounterIsChannelCorruptedNotAUsageError) {
  auto ring =
      shm_ring::create({.slot_count = 2, .slot_bytes = 4096, .purpose = test_purpose("counters")});
  // The peer, through a handle of its own, publishes in the producer's stead.
  auto peer = shm_ring::attach(ring.descriptor());
  const auto ours = ring.acquire_free(in(1s));
  peer.publish(peer.acquire_free(in(1s)), 1);
  try {
    ring.publish(ours, 1);
    ADD_FAILURE() << "a publish over the peer's went through";
  } catch (const channel_corrupted& error) {
    EXPECT_NE(std::string(error.what()).find("published"), std::string::npos) << error.what();
  }

  // And a consumer whose slot the peer released for it.
  auto consumer_ring =
      shm_ring::create({.slot_count = 2, .slot_bytes = 4096, .purpose = test_purpose("released")});
  auto consumer_peer = shm_ring::attach(consumer_ring.descriptor());
  consumer_ring.publish(consumer_ring.acquire_free(in(1s)), 1);
  consumer_ring.publish(consumer_ring.acquire_free(in(1s)), 2);
  const auto taken = consumer_ring.acquire_filled(in(1s));
  consumer_peer.release(consumer_peer.acquire_filled(in(1s)).index);
  EXPECT_THROW(consumer_ring.release(taken.index), channel_corrupted);
  EXPECT_THROW(consumer_ring.acquire_filled(in(1s)), channel_corrupted);
}

TEST_F(ShmRing, AttachRejectsDescriptorsThatAreNotARing) {
  EXPECT_THROW(shm_ring::attach(-1), transport::shared_memory_bad_descriptor);
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  EXPECT_THROW(shm_ring::attach(pipe_ends[0]), transport::shared_memory_bad_descriptor);
  ::close(pipe_ends[0]);
  ::close(pipe_ends[1]);

  const auto zeros = shared_memory_segment::create_shareable(1 << 20, test_purpose("zeros"));
  EXPECT_THROW(shm_ring::attach(zeros.descriptor()), channel_attach_error) << "no ring header";

  // A real ring's header in a segment too small for the slots it describes.
  auto ring =
      shm_ring::create({.slot_count = 4, .slot_bytes = 1 << 20, .purpose = test_purpose("header")});
  const auto short_copy = shared_memory_segment::create_shareable(8192, test_purpose("short"));
  std::memcpy(short_copy.bytes().data(), ring.slot_region().data() - 4096, 4096);
  try {
    shm_ring::attach(short_copy.descriptor());
    ADD_FAILURE() << "a truncated ring was attached";
  } catch (const channel_attach_error& error) {
    EXPECT_NE(std::string(error.what()).find("holds only"), std::string::npos) << error.what();
  }
  // And one whose header claims an impossible geometry.
  const auto corrupt = shared_memory_segment::create_shareable(8192, test_purpose("corrupt"));
  std::memcpy(corrupt.bytes().data(), ring.slot_region().data() - 4096, 4096);
  std::uint64_t zero_slots = 0;
  std::memcpy(corrupt.bytes().data() + 16, &zero_slots, sizeof(zero_slots));  // slot_count
  EXPECT_THROW(shm_ring::attach(corrupt.descriptor()), channel_attach_error);
}

}  // namespace
}  // namespace handoff::patterns
