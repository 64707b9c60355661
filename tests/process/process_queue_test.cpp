// Conformance of process_queue with Python's multiprocessing.Queue / JoinableQueue, across real
// spawned processes: ordering, exactly-once delivery, join, Full/Empty, and what happens when a
// producer or a consumer is killed in the middle of a message.

#include "handoff/transport/channels/process_queue.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <thread>

#include "channel_test_support.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns {

using transport::channel_attach_error;
using transport::coordinator_connection;
using transport::deadline_clock;
using transport::message_too_large;
using transport::peer_watch;
using transport::process_queue;
using transport::queue_broken;
using transport::queue_too_many_task_done;
using transport::worker_died;
using transport::worker_pool;

namespace {

using namespace channel_testing;

// A worker finds a queue passed as worker_launch::extra_fds here, right after its channel.
constexpr std::array<int, 3> first_queue_fds{4, 5, 6};
constexpr std::array<int, 3> second_queue_fds{7, 8, 9};

// A numbered message: who sent it, its place in that sender's sequence, and a filler of varying
// length whose bytes depend on both, so a torn or mixed-up message cannot pass as whole.
struct message_label {
  std::uint32_t producer;
  std::uint32_t sequence;
};

std::vector<std::byte> numbered_message(std::uint32_t producer, std::uint32_t sequence) {
  const std::size_t filler = (sequence * 37u + producer) % 301;
  std::vector<std::byte> message(sizeof(message_label) + filler);
  const message_label label{producer, sequence};
  std::memcpy(message.data(), &label, sizeof(label));
  for (std::size_t index = 0; index < filler; ++index) {
    message[sizeof(label) + index] = std::byte(producer * 31 + sequence + index);
  }
  return message;
}

// The label of a message that is exactly what numbered_message made; fails the test otherwise.
message_label read_numbered_message(const std::vector<std::byte>& message) {
  message_label label{};
  if (message.size() < sizeof(label)) {
    ADD_FAILURE() << "a message of " << message.size() << " bytes is too short to be numbered";
    return label;
  }
  std::memcpy(&label, message.data(), sizeof(label));
  EXPECT_EQ(message, numbered_message(label.producer, label.sequence))
      << "message " << label.sequence << " of producer " << label.producer << " is corrupt";
  return label;
}

std::vector<std::byte> patterned_bytes(std::size_t size, unsigned seed) {
  std::vector<std::byte> bytes(size);
  for (std::size_t index = 0; index < size; ++index) {
    bytes[index] = std::byte((index * 131 + seed) >> 3);
  }
  return bytes;
}

std::size_t unread_pipe_bytes(const process_queue& queue) {
  int unread = 0;
  ::ioctl(queue.descriptors()[1], FIONREAD, &unread);
  return static_cast<std::size_t>(unread);
}

// The producer is inside its message once the pipe holds part of it. It first fills 16 MiB, which
// ThreadSanitizer on a loaded machine slows many times over: the wait ends as soon as the bytes
// arrive, and its deadline only turns a hang into a failure.
bool producer_is_inside_its_message(const process_queue& queue) {
  const auto filled_by = deadline_clock::now() + std::chrono::seconds(60);
  while (unread_pipe_bytes(queue) < 4096 && deadline_clock::now() < filled_by) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return unread_pipe_bytes(queue) >= 4096;
}

// Where two buffers of one size first differ; their size where they do not.
std::size_t first_difference(std::span<const std::byte> a, std::span<const std::byte> b) {
  return static_cast<std::size_t>(std::mismatch(a.begin(), a.end(), b.begin()).first - a.begin());
}

std::size_t pipe_stream_capacity(const process_queue& queue) {
  return static_cast<std::size_t>(::fcntl(queue.descriptors()[1], F_GETPIPE_SZ));
}

// ---- worker roles -------------------------------------------------------------------------

// Puts `count` numbered messages as producer `id`.
int numbered_producer(std::span<const std::string> arguments) {
  const auto id = static_cast<std::uint32_t>(std::stoul(argument(arguments, 0)));
  const auto count = static_cast<std::uint32_t>(std::stoul(argument(arguments, 1)));
  auto channel = coordinator_connection();
  auto queue = process_queue::attach(first_queue_fds);
  for (std::uint32_t sequence = 0; sequence < count; ++sequence) {
    queue.put(numbered_message(id, sequence), in(10s), coordinator_watch());
  }
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_numbered_producer", numbered_producer);

// Puts numbered messages until it is killed.
int endless_producer(std::span<const std::string>) {
  auto queue = process_queue::attach(first_queue_fds);
  for (std::uint32_t sequence = 0;; ++sequence) {
    queue.put(numbered_message(0, sequence), in(60s), coordinator_watch());
  }
}
HANDOFF_WORKER_ROLE("queue_endless_producer", endless_producer);

// Takes messages until an empty one, then sends the coordinator the sequence numbers it got.
int collecting_consumer(std::span<const std::string>) {
  auto channel = coordinator_connection();
  auto queue = process_queue::attach(first_queue_fds);
  std::vector<std::uint32_t> sequences;
  while (true) {
    const auto message = queue.get(in(10s), coordinator_watch());
    if (message.empty()) break;
    sequences.push_back(read_numbered_message(message).sequence);
  }
  channel.send(std::as_bytes(std::span(sequences)), in(10s));
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_collecting_consumer", collecting_consumer);

// Forwards `count` messages from the first queue to the second, byte for byte.
int echo(std::span<const std::string> arguments) {
  const auto count = std::stoul(argument(arguments, 0));
  auto channel = coordinator_connection();
  auto from = process_queue::attach(first_queue_fds);
  auto to = process_queue::attach(second_queue_fds);
  for (std::size_t index = 0; index < count; ++index) {
    to.put(from.get(in(10s), coordinator_watch()), in(10s), coordinator_watch());
  }
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_echo", echo);

// Takes `count` tasks from a joinable queue, finishing each after a pause; tells the coordinator
// when it began the last task_done.
int slow_finisher(std::span<const std::string> arguments) {
  const auto count = std::stoul(argument(arguments, 0));
  auto channel = coordinator_connection();
  auto queue = process_queue::attach(first_queue_fds);
  std::int64_t last_task_done_at = 0;
  for (std::size_t index = 0; index < count; ++index) {
    queue.get(in(10s), coordinator_watch());
    std::this_thread::sleep_for(100ms);
    last_task_done_at = deadline_clock::now().time_since_epoch().count();
    queue.task_done();
  }
  channel.send_record(last_task_done_at, in(10s));
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_slow_finisher", slow_finisher);

// Says it is ready, then puts one message far larger than the pipe, which nobody reads.
int big_message_producer(std::span<const std::string> arguments) {
  const auto bytes = std::stoul(argument(arguments, 0));
  auto channel = coordinator_connection();
  auto queue = process_queue::attach(first_queue_fds);
  channel.send_record(std::uint32_t{1}, in(10s));
  queue.put(patterned_bytes(bytes, 1), in(60s), coordinator_watch());
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_big_message_producer", big_message_producer);

// Says it is ready, then waits in get for one message.
int waiting_consumer(std::span<const std::string>) {
  auto channel = coordinator_connection();
  auto queue = process_queue::attach(first_queue_fds);
  channel.send_record(std::uint32_t{1}, in(10s));
  queue.get(in(60s), coordinator_watch());
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_waiting_consumer", waiting_consumer);

class ProcessQueue : public leaves_no_segment_held {};

// ---- ordering and completeness --------------------------------------------------------------

TEST_F(ProcessQueue, FourProducersDeliverEveryMessageOnceInEachProducersOrder) {
  constexpr std::uint32_t producers = 4;
  constexpr std::uint32_t per_producer = 1000;
  // Bounded well below the total, so the producers also block on a full queue and contend for
  // the writer lock.
  auto queue = process_queue::create({.max_items = 16, .purpose = test_purpose("producers")});
  std::vector<worker_pool> pools;
  for (std::uint32_t id = 0; id < producers; ++id) {
    pools.emplace_back(
        "producer" + std::to_string(id), 1,
        transport::worker_launch{.role = "queue_numbered_producer",
                                 .arguments = {std::to_string(id), std::to_string(per_producer)},
                                 .extra_fds = queue.descriptors()});
  }
  const peer_watch all_alive = [&] {
    for (auto& pool : pools)
      pool.check_alive();
  };
  std::vector<std::uint32_t> next_expected(producers, 0);
  for (std::uint32_t received = 0; received < producers * per_producer; ++received) {
    const auto label = read_numbered_message(queue.get(in(10s), all_alive));
    ASSERT_LT(label.producer, producers);
    ASSERT_EQ(label.sequence, next_expected[label.producer])
        << "producer " << label.producer << "'s messages arrived out of order or twice";
    ++next_expected[label.producer];
  }
  for (std::uint32_t id = 0; id < producers; ++id)
    EXPECT_EQ(next_expected[id], per_producer);
  EXPECT_EQ(queue.approximate_size(), 0U);
  EXPECT_THROW(queue.get(in(100ms)), transport::queue_empty)
      << "a message arrived beyond the 4000 sent";
  for (auto& pool : pools)
    pool.shutdown_expecting_success(10s);
}

TEST_F(ProcessQueue, SeveralConsumersTakeEachMessageExactlyOnce) {
  constexpr std::size_t consumers = 3;
  constexpr std::uint32_t messages = 3000;
  auto queue = process_queue::create({.max_items = 16, .purpose = test_purpose("consumers")});
  worker_pool pool("consumer", consumers,
                   {.role = "queue_collecting_consumer", .extra_fds = queue.descriptors()});
  const peer_watch alive = [&] { pool.check_alive(); };
  for (std::uint32_t sequence = 0; sequence < messages; ++sequence) {
    queue.put(numbered_message(0, sequence), in(10s), alive);
  }
  for (std::size_t index = 0; index < consumers; ++index)
    queue.put({}, in(10s), alive);

  std::map<std::uint32_t, int> times_taken;
  for (std::size_t index = 0; index < consumers; ++index) {
    const auto reply = pool.with_worker(index, [](transport::connection& channel) {
      return channel.receive(in(10s), sizeof(std::uint32_t) * messages);
    });
    // A consumer may take nothing at all while the others drain the queue (a loaded machine):
    // then both buffers are empty, and memcpy must not see their null pointers.
    std::vector<std::uint32_t> sequences(reply.size() / sizeof(std::uint32_t));
    if (!reply.empty()) std::memcpy(sequences.data(), reply.data(), reply.size());
    // One producer, so every consumer sees its share in the order it was put.
    EXPECT_TRUE(std::is_sorted(sequences.begin(), sequences.end()));
    for (const auto sequence : sequences)
      ++times_taken[sequence];
  }
  ASSERT_EQ(times_taken.size(), messages) << "some messages were never taken";
  for (const auto& [sequence, count] : times_taken) {
    ASSERT_EQ(count, 1) << "message " << sequence << " was taken " << count << " times";
  }
  pool.shutdown_expecting_success(10s);
}

TEST_F(ProcessQueue, MessagesOfEverySizeCrossIntactBothWays) {
  // Empty, tiny, around a page, around the pipe's size, and several times larger than the pipe.
  const std::vector<std::size_t> sizes{
      0, 1, 7, 4095, 4096, 65537, (1 << 20) - 8, 1 << 20, (3 << 20) + 5};
  auto there = process_queue::create({.purpose = test_purpose("echo-there")});
  auto back = process_queue::create({.purpose = test_purpose("echo-back")});
  auto fds = there.descriptors();
  const auto back_fds = back.descriptors();
  fds.insert(fds.end(), back_fds.begin(), back_fds.end());
  worker_pool pool(
      "echo", 1,
      {.role = "queue_echo", .arguments = {std::to_string(sizes.size())}, .extra_fds = fds});
  const peer_watch alive = [&] { pool.check_alive(); };
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    const auto payload = patterned_bytes(sizes[index], static_cast<unsigned>(index));
    // Half of them in two parts, which must arrive as one message.
    if (index % 2 == 1) {
      const auto split = payload.size() / 3;
      there.put_parts({std::span(payload).first(split), std::span(payload).subspan(split)}, in(10s),
                      alive);
    } else {
      there.put(payload, in(10s), alive);
    }
    EXPECT_EQ(back.get(in(10s), alive), payload) << "message of " << sizes[index] << " bytes";
  }
  pool.shutdown_expecting_success(10s);
}

// ---- joinable queues ----------------------------------------------------------------------

TEST_F(ProcessQueue, JoinReturnsOnlyAfterTheLastTaskDone) {
  constexpr std::size_t tasks = 3;
  auto queue = process_queue::create({.joinable = true, .purpose = test_purpose("join")});
  worker_pool pool("finisher", 1,
                   {.role = "queue_slow_finisher",
                    .arguments = {std::to_string(tasks)},
                    .extra_fds = queue.descriptors()});
  const peer_watch alive = [&] { pool.check_alive(); };
  const auto start = deadline_clock::now();
  for (std::size_t index = 0; index < tasks; ++index) {
    queue.put(numbered_message(0, static_cast<std::uint32_t>(index)), in(10s), alive);
  }
  queue.join(in(10s), alive);
  const auto joined_at = deadline_clock::now();
  const auto last_task_done_at = deadline_clock::time_point(
      deadline_clock::duration(pool.channel(0).receive_record<std::int64_t>(in(10s))));
  EXPECT_GE(joined_at, last_task_done_at) << "join returned before the last task_done";
  // Each task takes the worker 100 ms, so nothing before 300 ms can be the real end.
  EXPECT_GE(joined_at - start, 300ms);
  EXPECT_THROW(queue.task_done(), queue_too_many_task_done);
  pool.shutdown_expecting_success(10s);
}

TEST_F(ProcessQueue, JoinWithAnUnfinishedTaskTimesOutAtItsDeadline) {
  auto queue = process_queue::create({.joinable = true, .purpose = test_purpose("join-timeout")});
  queue.put(numbered_message(0, 0), in(1s));
  queue.get(in(1s));  // taken, but never finished
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.join(start + 200ms), transport::deadline_exceeded);
  EXPECT_GE(deadline_clock::now() - start, 200ms);
  EXPECT_LT(deadline_clock::now() - start, 1s);
  queue.task_done();
  queue.join(in(1s));  // and now there is nothing to wait for
}

TEST_F(ProcessQueue, OneTaskDoneTooManyIsAnErrorAndChangesNothing) {
  auto queue = process_queue::create({.joinable = true, .purpose = test_purpose("task-done")});
  EXPECT_THROW(queue.task_done(), queue_too_many_task_done) << "no task was ever put";
  queue.put(numbered_message(0, 0), in(1s));
  queue.put(numbered_message(0, 1), in(1s));
  queue.get(in(1s));
  queue.get(in(1s));
  queue.task_done();
  queue.task_done();
  EXPECT_THROW(queue.task_done(), queue_too_many_task_done);
  queue.join(in(1s));
  // The failed call did not drive the count negative: the next put is waited for again.
  queue.put(numbered_message(0, 2), in(1s));
  EXPECT_THROW(queue.join(in(100ms)), transport::deadline_exceeded);
}

TEST_F(ProcessQueue, TaskDoneAndJoinNeedAJoinableQueue) {
  auto queue = process_queue::create({.purpose = test_purpose("not-joinable")});
  EXPECT_THROW(queue.task_done(), transport::channel_usage_error);
  EXPECT_THROW(queue.join(in(100ms)), transport::channel_usage_error);
}

// ---- Full and Empty ------------------------------------------------------------------------

TEST_F(ProcessQueue, PutOnAFullBoundedQueueIsQueueFullAtItsDeadline) {
  auto queue = process_queue::create({.max_items = 2, .purpose = test_purpose("full")});
  queue.put(numbered_message(0, 0), in(1s));
  queue.put(numbered_message(0, 1), in(1s));
  EXPECT_EQ(queue.approximate_size(), 2U);
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.put(numbered_message(0, 2), start + 200ms), transport::queue_full);
  EXPECT_GE(deadline_clock::now() - start, 200ms);
  EXPECT_LT(deadline_clock::now() - start, 1s);
  // Nothing of the refused message went in; taking one makes room again.
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 0U);
  queue.put(numbered_message(0, 3), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 1U);
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 3U);
}

TEST_F(ProcessQueue, APutBlockedOnAFullQueueGoesThroughWhenAConsumerTakesOne) {
  auto queue = process_queue::create({.max_items = 1, .purpose = test_purpose("unblock")});
  queue.put(numbered_message(0, 0), in(1s));
  std::thread consumer([&] {
    std::this_thread::sleep_for(150ms);
    queue.get(in(1s));
  });
  const auto start = deadline_clock::now();
  queue.put(numbered_message(0, 1), in(5s));
  EXPECT_GE(deadline_clock::now() - start, 100ms) << "the put did not wait for room";
  consumer.join();
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 1U);
}

TEST_F(ProcessQueue, GetOnAnEmptyQueueIsQueueEmptyAtItsDeadline) {
  auto queue = process_queue::create({.purpose = test_purpose("empty")});
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.get(start + 200ms), transport::queue_empty);
  EXPECT_GE(deadline_clock::now() - start, 200ms);
  EXPECT_LT(deadline_clock::now() - start, 1s);
  // A timed-out get leaves the queue as it was.
  queue.put(numbered_message(0, 7), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 7U);
}

TEST_F(ProcessQueue, ThePeerWatchRunsWhileAGetWaits) {
  auto queue = process_queue::create({.purpose = test_purpose("watch")});
  int checks = 0;
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.get(start + 5s,
                         [&] {
                           if (++checks == 3) throw transport::channel_closed("planted death");
                         }),
               transport::channel_closed);
  // Three checks at most peer_watch_interval apart, long before the deadline.
  EXPECT_LT(deadline_clock::now() - start, 1s);
  queue.put(numbered_message(0, 1), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 1U) << "an idle get broke nothing";
}

// ---- size caps -----------------------------------------------------------------------------

TEST_F(ProcessQueue, AMessageOverTheCapIsRefusedBeforeAnythingIsSent) {
  auto queue =
      process_queue::create({.max_message_bytes = 1024, .purpose = test_purpose("cap-sender")});
  EXPECT_THROW(queue.put(patterned_bytes(1025, 0), in(1s)), message_too_large);
  const std::vector<std::byte> half(600);
  EXPECT_THROW(queue.put_parts({half, half}, in(1s)), message_too_large);
  EXPECT_EQ(unread_pipe_bytes(queue), 0U);
  queue.put(patterned_bytes(1024, 0), in(1s));
  EXPECT_EQ(queue.get(in(1s)), patterned_bytes(1024, 0));
}

TEST_F(ProcessQueue, ALengthOverTheCapInTheStreamIsRejectedWithoutAllocatingIt) {
  auto queue = process_queue::create({.purpose = test_purpose("cap-receiver")});
  // A forged length prefix of 1 TiB, as a corrupt or hostile writer would send.
  const std::uint64_t forged_length = std::uint64_t{1} << 40;
  ASSERT_EQ(::write(queue.descriptors()[2], &forged_length, sizeof(forged_length)),
            static_cast<ssize_t>(sizeof(forged_length)));
  EXPECT_THROW(queue.get(in(1s)), message_too_large);
  // The stream can no longer be trusted, in this process or any other.
  EXPECT_THROW(queue.get(in(1s)), queue_broken);
  EXPECT_THROW(queue.put(patterned_bytes(10, 0), in(1s)), queue_broken);
  auto elsewhere = process_queue::attach(queue.descriptors());
  EXPECT_THROW(elsewhere.get(in(1s)), queue_broken);
}

// ---- killed peers --------------------------------------------------------------------------

TEST_F(ProcessQueue, ProducerKilledMidStreamFailsTheConsumerWithinItsDeadline) {
  auto queue = process_queue::create({.max_items = 8, .purpose = test_purpose("kill-stream")});
  worker_pool pool("endless", 1,
                   {.role = "queue_endless_producer", .extra_fds = queue.descriptors()});
  const peer_watch alive = [&] { pool.check_alive(); };
  std::uint32_t expected = 0;
  for (; expected < 200; ++expected) {
    ASSERT_EQ(read_numbered_message(queue.get(in(5s), alive)).sequence, expected);
  }
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  const auto killed_at = deadline_clock::now();
  // What was put whole before the kill still arrives, in order; then the death is reported.
  try {
    while (true) {
      ASSERT_EQ(read_numbered_message(queue.get(killed_at + 3s, alive)).sequence, expected);
      ++expected;
    }
  } catch (const worker_died& death) {
    EXPECT_FALSE(death.status().exited) << death.what();
  } catch (const queue_broken&) {
    // The kill landed inside a message: just as good, as long as it came in time.
  }
  EXPECT_LT(deadline_clock::now() - killed_at, 2s);
}

TEST_F(ProcessQueue, ProducerKilledInsideAMessageIsReportedByThePeerWatch) {
  auto queue = process_queue::create({.purpose = test_purpose("kill-inside-watch")});
  worker_pool pool("big", 1,
                   {.role = "queue_big_message_producer",
                    .arguments = {std::to_string(16 << 20)},
                    .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  ASSERT_TRUE(producer_is_inside_its_message(queue));
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  wait_until_pool_sees_a_death(pool);

  // Half the deadline tells the watch's report from a wait to the deadline, with room for
  // draining the message's first part under ThreadSanitizer on a loaded machine.
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.get(start + 6s, [&] { pool.check_alive(); }), worker_died);
  EXPECT_LT(deadline_clock::now() - start, 3s);
  // Half a message was read: the stream is torn for everyone from now on.
  EXPECT_THROW(queue.get(in(1s)), queue_broken);
  EXPECT_THROW(queue.put(numbered_message(0, 0), in(1s)), queue_broken);
}

TEST_F(ProcessQueue, ProducerKilledInsideAMessageIsNoticedWithoutAPeerWatch) {
  auto queue = process_queue::create({.purpose = test_purpose("kill-inside")});
  worker_pool pool("big", 1,
                   {.role = "queue_big_message_producer",
                    .arguments = {std::to_string(16 << 20)},
                    .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  ASSERT_TRUE(producer_is_inside_its_message(queue));
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  wait_until_pool_sees_a_death(pool);

  // The dead producer still owns the writer lock, marked as inside a message: the stalled get
  // finds that out on its own, long before its deadline. Half the deadline leaves room for
  // draining the message's first part under ThreadSanitizer on a loaded machine.
  const auto start = deadline_clock::now();
  try {
    queue.get(start + 6s);
    ADD_FAILURE() << "a get of half a message succeeded";
  } catch (const queue_broken& error) {
    EXPECT_NE(std::string(error.what()).find("writer lock"), std::string::npos) << error.what();
  }
  EXPECT_LT(deadline_clock::now() - start, 3s);
}

TEST_F(ProcessQueue, ConsumerKilledMidTransferFailsTheProducerWithinItsDeadline) {
  auto queue = process_queue::create({.purpose = test_purpose("kill-consumer")});
  worker_pool pool("consumer", 1,
                   {.role = "queue_waiting_consumer", .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  std::this_thread::sleep_for(100ms);  // into its get

  // 256 MiB, far more than moves through a pipe in one peer_watch_interval, from untouched
  // anonymous pages so it costs the coordinator no memory. The watch fires while the consumer is
  // reading it and kills the consumer there.
  constexpr std::size_t bytes = std::size_t{256} << 20;
  void* source = ::mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(source, MAP_FAILED);
  bool killed = false;
  const auto start = deadline_clock::now();
  try {
    queue.put(std::span(static_cast<const std::byte*>(source), bytes), start + 5s, [&] {
      if (!killed) killed = ::kill(pool.worker_pid(0), SIGKILL) == 0;
    });
    ADD_FAILURE() << "the put finished although its consumer was killed";
  } catch (const queue_broken& error) {
    EXPECT_NE(std::string(error.what()).find("reader lock"), std::string::npos) << error.what();
  }
  ::munmap(source, bytes);
  EXPECT_TRUE(killed);
  // Found through the dead consumer's lock, well before the deadline.
  EXPECT_LT(deadline_clock::now() - start, 2s);
  EXPECT_THROW(queue.get(in(1s)), queue_broken);
}

TEST_F(ProcessQueue, ConsumerKilledBeforeItReadsFailsAPutAtTheDeadline) {
  auto queue = process_queue::create({.purpose = test_purpose("kill-consumer-idle")});
  worker_pool pool("consumer", 1,
                   {.role = "queue_waiting_consumer", .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  std::this_thread::sleep_for(100ms);
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  wait_until_pool_sees_a_death(pool);
  // Nobody reads any more: a message larger than the pipe stops halfway, at the deadline.
  const auto payload = patterned_bytes(8 << 20, 3);
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.put(payload, start + 300ms), queue_broken);
  EXPECT_GE(deadline_clock::now() - start, 300ms);
  EXPECT_LT(deadline_clock::now() - start, 1500ms);
}

TEST_F(ProcessQueue, ConsumerKilledWhileWaitingBetweenMessagesBreaksNothing) {
  auto queue = process_queue::create({.purpose = test_purpose("kill-idle")});
  worker_pool pool("consumer", 1,
                   {.role = "queue_waiting_consumer", .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  std::this_thread::sleep_for(100ms);  // inside get, holding the reader lock, with no message
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  wait_until_pool_sees_a_death(pool);
  // The reader lock is inherited from a dead owner that was between messages: it is taken over.
  queue.put(numbered_message(0, 5), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 5U);
}

TEST_F(ProcessQueue, ProducerKilledWhileWaitingForRoomGivesBackItsPlaceAndItsTask) {
  auto queue = process_queue::create(
      {.max_items = 2, .joinable = true, .purpose = test_purpose("kill-waiting")});
  // Most of the pipe is taken, so the worker's 300 KiB message has to wait for room, holding
  // the writer lock, one of the two places, and one unfinished task.
  queue.put(patterned_bytes(900 << 10, 1), in(1s));
  worker_pool pool("waiting-producer", 1,
                   {.role = "queue_big_message_producer",
                    .arguments = {std::to_string(300 << 10)},
                    .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  // Once it has counted its task it is past every step but the wait for room.
  for (const auto until = in(5s);
       queue.approximate_unfinished_tasks() < 2 && deadline_clock::now() < until;) {
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_EQ(queue.approximate_unfinished_tasks(), 2U);
  std::this_thread::sleep_for(20ms);
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGKILL), 0);
  wait_until_pool_sees_a_death(pool);

  EXPECT_EQ(queue.get(in(1s)), patterned_bytes(900 << 10, 1));
  queue.task_done();
  // The dead producer's task is given back when its lock is taken over: join ends at once.
  const auto start = deadline_clock::now();
  queue.join(start + 3s);
  EXPECT_LT(deadline_clock::now() - start, 1s);
  // And its place: both places of the bounded queue are free again.
  queue.put(numbered_message(0, 1), in(200ms));
  queue.put(numbered_message(0, 2), in(200ms));
  EXPECT_THROW(queue.put(numbered_message(0, 3), in(100ms)), transport::queue_full);
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 1U);
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 2U);
}

TEST_F(ProcessQueue, ChannelDiedWatchExceptionInsideAPutBreaksTheQueue) {
  auto queue = process_queue::create({.purpose = test_purpose("watch-put")});
  worker_pool pool("consumer", 1,
                   {.role = "queue_waiting_consumer", .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  ASSERT_EQ(::kill(pool.worker_pid(0), SIGSTOP), 0);  // a consumer that stops reading
  const auto payload = patterned_bytes(8 << 20, 4);
  bool killed = false;
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.put(payload, start + 5s,
                         [&] {
                           if (!killed) {
                             killed = ::kill(pool.worker_pid(0), SIGKILL) == 0;
                             wait_until_pool_sees_a_death(pool);
                           }
                           pool.check_alive();
                         }),
               worker_died);
  EXPECT_LT(deadline_clock::now() - start, 1s);
  // The put stopped inside its message, so nobody may read from this stream again.
  EXPECT_THROW(queue.get(in(1s)), queue_broken);
}

// ---- attaching -----------------------------------------------------------------------------

TEST_F(ProcessQueue, AttachRejectsDescriptorsThatAreNotAQueue) {
  auto queue = process_queue::create({.purpose = test_purpose("attach")});
  const auto fds = queue.descriptors();
  EXPECT_THROW(process_queue::attach(std::span(fds).first(2)), channel_attach_error);
  EXPECT_THROW(process_queue::attach(std::vector<int>{fds[0], fds[2], fds[1]}),
               channel_attach_error)
      << "the pipe's ends swapped";
  auto other = process_queue::create({.purpose = test_purpose("attach-other")});
  EXPECT_THROW(process_queue::attach(std::vector<int>{fds[0], fds[1], other.descriptors()[2]}),
               channel_attach_error)
      << "ends of two different pipes";
  const auto plain =
      transport::shared_memory_segment::create_shareable(4096, test_purpose("attach-plain"));
  EXPECT_THROW(process_queue::attach(std::vector<int>{plain.descriptor(), fds[1], fds[2]}),
               channel_attach_error)
      << "shared memory that holds no queue";
  EXPECT_THROW(process_queue::attach(std::vector<int>{fds[1], fds[1], fds[2]}),
               transport::shared_memory_bad_descriptor)
      << "a pipe where the control segment belongs";
  // The real thing attaches, in this process too, and shares the same queue.
  auto again = process_queue::attach(fds);
  again.put(numbered_message(0, 9), in(1s));
  EXPECT_EQ(queue.approximate_size(), 1U);
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 9U);
}

TEST_F(ProcessQueue, GetIntoFillsTheCallersBuffersInOrder) {
  auto queue = process_queue::create({.purpose = test_purpose("get-into")});
  const std::vector<std::byte> message = {std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4},
                                          std::byte{5}};
  queue.put(message, in(1s));
  std::array<std::byte, 2> head{};
  std::array<std::byte, 8> tail{};
  EXPECT_EQ(queue.get_into({head, tail}, in(1s)), message.size());
  EXPECT_EQ(head[0], std::byte{1});
  EXPECT_EQ(head[1], std::byte{2});
  EXPECT_EQ(tail[0], std::byte{3});
  EXPECT_EQ(tail[2], std::byte{5});
  EXPECT_EQ(queue.approximate_size(), 0U);
}

TEST_F(ProcessQueue, GetIntoBuffersTooSmallIsMessageTooLargeAndBreaksTheQueue) {
  auto queue = process_queue::create({.purpose = test_purpose("get-into-small")});
  queue.put(std::vector<std::byte>(100), in(1s));
  std::array<std::byte, 99> buffer{};
  EXPECT_THROW(queue.get_into({buffer}, in(1s)), message_too_large);
  EXPECT_THROW(queue.put(std::vector<std::byte>(1), in(1s)), queue_broken);
}

TEST_F(ProcessQueue, AStreamedPutAndGetMoveAMessagePieceByPiece) {
  auto queue = process_queue::create({.purpose = test_purpose("streamed")});
  const auto message = patterned_bytes((3 << 20) + 7, 3);  // more than the pipe holds at once
  std::vector<std::byte> received(message.size());
  std::vector<std::pair<std::uint64_t, std::size_t>> landed;  // offset and size of each piece
  std::uint64_t got = 0;
  std::thread consumer([&] {
    got = queue.get_streamed(
        message.size(),
        {.place =
             [&](std::uint64_t offset, std::uint64_t length) {
               EXPECT_EQ(length, message.size());
               // Uneven room; the message fills it in order.
               return std::span(received).subspan(offset).first(
                   std::min<std::uint64_t>(received.size() - offset, 40000 + offset % 313));
             },
         .landed =
             [&](std::span<const std::byte> piece) {
               landed.emplace_back(piece.data() - received.data(), piece.size());
             }},
        in(30s));
  });
  std::size_t sent = 0;
  std::size_t asked = 0;
  queue.put_streamed(
      message.size(),
      [&] {
        ++asked;
        const std::size_t size = std::min<std::size_t>(message.size() - sent, 70000 + sent % 501);
        const auto piece = std::span(message).subspan(sent, size);
        sent += size;
        return piece;
      },
      in(30s));
  consumer.join();
  EXPECT_EQ(got, message.size());
  EXPECT_EQ(received, message);
  EXPECT_GT(asked, 40U);
  // Every piece was reported once it was full, in order, and together they are the message.
  std::uint64_t next = 0;
  for (const auto& [offset, size] : landed) {
    EXPECT_EQ(offset, next);
    next += size;
  }
  EXPECT_EQ(next, message.size());
  // The stream is intact for the next message.
  queue.put(numbered_message(0, 1), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 1U);
}

// Pieces that stay put are spliced into the pipe (put_streamed's piece_stays_for): the consumer
// then reads the producer's own pages, so a put must not return while any of them is still in the
// pipe. Here the producer scribbles over every piece the moment the put returns, and refills a ring
// of two pipe-sized buffers as the frame writer refills its staging; the consumer checks every
// byte.
TEST_F(ProcessQueue, SplicedPiecesArriveIntactAndNoneIsReadAfterThePutReturns) {
  auto queue = process_queue::create({.purpose = test_purpose("spliced")});
  const std::size_t pipe_bytes = pipe_stream_capacity(queue);
  const auto message = patterned_bytes(9 * pipe_bytes + 4099, 5);
  // A slow consumer, so that the pipe is full whenever the producer could return.
  const auto take = [&](std::vector<std::byte>& into) {
    into.resize(message.size());
    return std::thread([&queue, &into] {
      const auto got = queue.get_streamed(
          into.size(),
          {.place =
               [&](std::uint64_t offset, std::uint64_t) {
                 return std::span(into).subspan(offset).first(
                     std::min<std::size_t>(into.size() - offset, 64 << 10));
               },
           .landed = [](std::span<const std::byte>) { std::this_thread::sleep_for(200us); }},
          in(30s));
      EXPECT_EQ(got, into.size());
    });
  };
  // Pieces of the message itself, unchanged until the put returns.
  {
    auto source = message;
    std::vector<std::byte> received;
    auto consumer = take(received);
    std::size_t sent = 0;
    queue.put_streamed(
        source.size(),
        [&] {
          const std::size_t size = std::min<std::size_t>(source.size() - sent, 128 << 10);
          const auto piece = std::span(source).subspan(sent, size);
          sent += size;
          return piece;
        },
        in(30s), {}, ~std::uint64_t{0});
    std::fill(source.begin(), source.end(), std::byte{0xAB});
    consumer.join();
    EXPECT_EQ(first_difference(received, message), message.size());
  }
  // Pieces from a ring of two pipe-sized buffers, each refilled once the next has gone.
  {
    std::vector<std::byte> ring(2 * pipe_bytes);
    std::vector<std::byte> received;
    auto consumer = take(received);
    std::size_t sent = 0;
    queue.put_streamed(
        message.size(),
        [&] {
          const std::size_t chunk = sent / pipe_bytes;
          const std::size_t size = std::min(message.size() - sent, pipe_bytes - sent % pipe_bytes);
          const auto slot = std::span(ring).subspan((chunk % 2) * pipe_bytes + sent % pipe_bytes);
          std::copy_n(message.begin() + static_cast<std::ptrdiff_t>(sent), size, slot.begin());
          sent += size;
          return std::span<const std::byte>(slot.first(size));
        },
        in(30s), {}, pipe_bytes);
    std::fill(ring.begin(), ring.end(), std::byte{0xCD});
    consumer.join();
    EXPECT_EQ(first_difference(received, message), message.size());
  }
  queue.put(numbered_message(0, 3), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 3U);
}

TEST_F(ProcessQueue, StreamedPiecesThatDoNotAddUpAreAUsageError) {
  auto queue = process_queue::create({.purpose = test_purpose("streamed-usage")});
  const auto bytes = patterned_bytes(100, 1);
  // A first piece too long: nothing was written, so the queue is intact.
  EXPECT_THROW(queue.put_streamed(
                   99, [&] { return std::span<const std::byte>(bytes); }, in(1s)),
               transport::channel_usage_error);
  queue.put(numbered_message(0, 2), in(1s));
  EXPECT_EQ(read_numbered_message(queue.get(in(1s))).sequence, 2U);
  // No piece after some bytes went: the message is torn, and the queue broken.
  bool first = true;
  EXPECT_THROW(queue.put_streamed(
                   200,
                   [&] {
                     const bool was_first = std::exchange(first, false);
                     return was_first ? std::span<const std::byte>(bytes)
                                      : std::span<const std::byte>{};
                   },
                   in(1s)),
               transport::channel_usage_error);
  EXPECT_THROW(queue.get(in(1s)), queue_broken);
}

TEST_F(ProcessQueue, AStreamedGetOfAMessageOverItsLimitIsMessageTooLarge) {
  auto queue = process_queue::create({.purpose = test_purpose("streamed-limit")});
  queue.put(std::vector<std::byte>(100), in(1s));
  std::vector<std::byte> room(100);
  bool placed = false;
  EXPECT_THROW(queue.get_streamed(99,
                                  {.place =
                                       [&](std::uint64_t offset, std::uint64_t) {
                                         placed = true;
                                         return std::span(room).subspan(offset);
                                       },
                                   .landed = {}},
                                  in(1s)),
               message_too_large);
  EXPECT_FALSE(placed) << "nothing may land before the length is checked";
  EXPECT_THROW(queue.put(std::vector<std::byte>(1), in(1s)), queue_broken);
}

TEST_F(ProcessQueue, ItsSegmentIsHeldOnlyWhileAQueueHandleLives) {
  {
    auto queue = process_queue::create({.purpose = test_purpose("held")});
    EXPECT_EQ(segments_named_by_this_process().size(), 1U);
    {
      auto attached = process_queue::attach(queue.descriptors());
      EXPECT_EQ(segments_named_by_this_process().size(), 1U) << "the same segment, twice held";
    }
    EXPECT_EQ(segments_named_by_this_process().size(), 1U);
  }
  EXPECT_TRUE(segments_named_by_this_process().empty());
}

}  // namespace
}  // namespace handoff::patterns
