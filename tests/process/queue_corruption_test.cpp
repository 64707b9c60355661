// A peer that writes garbage into a process_queue's control block (every process attached to a
// queue maps it read-write) must get the coordinator a typed error within its deadline: never an
// abort (garbage in a process-shared pthread mutex made glibc abort, tpp.c:83), a crash or a hang.
// The test process plays the coordinator; the peer is a second mapping of the control segment
// here, or a spawned worker that scribbles over it while the coordinator uses the queue.

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <random>
#include <string>

#include "channel_test_support.hpp"
#include "channels/queue_control.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns {

using transport::deadline_clock;
using transport::process_error;
using transport::process_queue;
using transport::queue_broken;
using transport::queue_control;
using transport::shared_memory_segment;
using transport::shared_state_corrupted;

namespace {

using namespace channel_testing;

const std::vector<std::byte> small_message(100, std::byte{0x42});

// What a peer holding the queue's descriptors sees of its control block: a mapping of its own.
class peer_view {
 public:
  explicit peer_view(const process_queue& queue)
      : segment_(shared_memory_segment::attach(queue.descriptors()[0], sizeof(queue_control))) {}
  queue_control& block() const {
    return *reinterpret_cast<queue_control*>(segment_.bytes().data());
  }
  std::span<std::byte> bytes() const { return segment_.bytes().first(sizeof(queue_control)); }

 private:
  shared_memory_segment segment_;
};

// Runs call, which must end in an error of type Error within a second, long before its deadline
// of 5 s; returns the error's message.
template <class Error, class Call>
std::string expect_prompt_error(Call&& call) {
  const auto start = deadline_clock::now();
  try {
    call(start + 5s);
    ADD_FAILURE() << "the call returned";
  } catch (const Error& error) {
    EXPECT_LT(deadline_clock::now() - start, 1s) << error.what();
    return error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "an error of another type: " << error.what();
  }
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class QueueCorruption : public leaves_no_segment_held {};

// ---- lock words ------------------------------------------------------------------------------

struct bad_lock_word {
  const char* what;
  std::uint32_t word;  // 0: this thread's own id
};

class QueueLockWord : public leaves_no_segment_held,
                      public ::testing::WithParamInterface<bad_lock_word> {};

TEST_P(QueueLockWord, InTheWriterLockIsATypedErrorForAPutAndBreaksTheQueue) {
  auto queue = process_queue::create({.purpose = test_purpose("writer-word")});
  const peer_view peer(queue);
  const std::uint32_t word =
      GetParam().word != 0 ? GetParam().word : static_cast<std::uint32_t>(::gettid());
  peer.block().writer.lock.word.store(word);
  const auto why = expect_prompt_error<shared_state_corrupted>(
      [&](auto deadline) { queue.put(small_message, deadline); });
  EXPECT_TRUE(contains(why, "writer lock")) << why;
  EXPECT_TRUE(contains(why, test_purpose("writer-word"))) << why;
  // Every process that touches the queue from now on is told.
  auto elsewhere = process_queue::attach(queue.descriptors());
  EXPECT_THROW(elsewhere.get(in(1s)), queue_broken);
}

TEST_P(QueueLockWord, InTheReaderLockIsATypedErrorForAGet) {
  auto queue = process_queue::create({.purpose = test_purpose("reader-word")});
  queue.put(small_message, in(1s));
  const peer_view peer(queue);
  const std::uint32_t word =
      GetParam().word != 0 ? GetParam().word : static_cast<std::uint32_t>(::gettid());
  peer.block().reader.lock.word.store(word);
  const auto why =
      expect_prompt_error<shared_state_corrupted>([&](auto deadline) { queue.get(deadline); });
  EXPECT_TRUE(contains(why, "reader lock")) << why;
}

INSTANTIATE_TEST_SUITE_P(Words, QueueLockWord,
                         ::testing::Values(bad_lock_word{"all_ones", 0xffff'ffffu},
                                           bad_lock_word{"bit_30", 0x4000'0000u | 1u},
                                           bad_lock_word{"waiters_on_a_free_lock", 0x8000'0000u},
                                           bad_lock_word{"thread_id_beyond_the_kernels_limit",
                                                         (1u << 22) + 1},
                                           bad_lock_word{"this_thread_which_holds_nothing", 0}),
                         [](const auto& word_info) { return std::string(word_info.param.what); });

TEST_F(QueueCorruption, ALockHeldByALiveThreadThatNeverLetsGoEndsAtTheDeadline) {
  auto queue = process_queue::create({.purpose = test_purpose("held-forever")});
  const peer_view peer(queue);
  peer.block().writer.lock.word.store(1);  // init's thread: a valid holder, and it never unlocks
  const auto start = deadline_clock::now();
  EXPECT_THROW(queue.put(small_message, start + 300ms), transport::queue_full);
  EXPECT_GE(deadline_clock::now() - start, 300ms);
  EXPECT_LT(deadline_clock::now() - start, 1s);
}

TEST_F(QueueCorruption, ALockNamingAThreadThatIsGoneIsTakenOver) {
  auto queue = process_queue::create({.purpose = test_purpose("holder-gone")});
  auto ended = transport::spawned_process::start("ended", {"/bin/true"});
  const auto gone = static_cast<std::uint32_t>(ended.pid());
  ended.wait_for(10s);
  ASSERT_TRUE(transport::thread_is_gone(gone));
  ASSERT_FALSE(transport::thread_is_gone(static_cast<std::uint32_t>(::gettid())));
  const peer_view peer(queue);
  peer.block().writer.lock.word.store(gone);
  const auto start = deadline_clock::now();
  queue.put(small_message, start + 5s);
  EXPECT_LT(deadline_clock::now() - start, 1s);
  EXPECT_EQ(queue.get(in(1s)), small_message);
}

// ---- what the locks guard, the mark and the counts --------------------------------------------

TEST_F(QueueCorruption, AFlagBesideALockThatIsNeitherZeroNorOneIsATypedError) {
  auto queue = process_queue::create({.purpose = test_purpose("flag")});
  const peer_view peer(queue);
  peer.block().writer.mid_message.store(7);
  const auto why = expect_prompt_error<shared_state_corrupted>(
      [&](auto deadline) { queue.put(small_message, deadline); });
  EXPECT_TRUE(contains(why, "mid-message flag")) << why;
  EXPECT_TRUE(contains(why, "holds 7")) << why;
}

TEST_F(QueueCorruption, ABrokenMarkThatIsNoneOfItsStatesIsATypedError) {
  auto queue = process_queue::create({.purpose = test_purpose("mark")});
  const peer_view peer(queue);
  peer.block().broken_state.store(9);
  const auto why = expect_prompt_error<shared_state_corrupted>(
      [&](auto deadline) { queue.put(small_message, deadline); });
  EXPECT_TRUE(contains(why, "broken mark")) << why;
  EXPECT_THROW(queue.get(in(1s)), shared_state_corrupted);
}

TEST_F(QueueCorruption, AReasonWithoutItsEndIsReadOnlyToTheEndOfItsField) {
  auto queue = process_queue::create({.purpose = test_purpose("reason")});
  const peer_view peer(queue);
  auto& block = peer.block();
  std::memset(block.broken_reason, 'x', sizeof(block.broken_reason));
  // What follows the field is no text either: an unbounded read would run on into it.
  std::memset(static_cast<void*>(&block.items), 'A', sizeof(block.items));
  block.broken_state.store(transport::queue_marked_broken);
  const auto why = expect_prompt_error<queue_broken>([&](auto deadline) { queue.get(deadline); });
  EXPECT_TRUE(contains(why, std::string(sizeof(block.broken_reason), 'x'))) << why;
  EXPECT_FALSE(contains(why, std::string(sizeof(block.broken_reason) + 1, 'x'))) << why;
  EXPECT_FALSE(contains(why, "A")) << why;
}

TEST_F(QueueCorruption, APlaceCountAboveTheBoundIsATypedError) {
  auto queue = process_queue::create({.max_items = 2, .purpose = test_purpose("places")});
  const peer_view peer(queue);
  peer.block().reserved_items.store(1000);
  const auto why = expect_prompt_error<shared_state_corrupted>(
      [&](auto deadline) { queue.put(small_message, deadline); });
  EXPECT_TRUE(contains(why, "reserved places holds 1000")) << why;
}

TEST_F(QueueCorruption, ANegativeTaskCountIsATypedError) {
  auto queue = process_queue::create({.joinable = true, .purpose = test_purpose("tasks")});
  const peer_view peer(queue);
  peer.block().unfinished_tasks.store(-5);
  expect_prompt_error<shared_state_corrupted>([&](auto deadline) { queue.join(deadline); });
  EXPECT_THROW(queue.task_done(), process_error);
}

TEST_F(QueueCorruption, SettingsAreNotReadBackFromSharedMemory) {
  auto queue = process_queue::create({.max_message_bytes = 1024, .purpose = test_purpose("cap")});
  const peer_view peer(queue);
  // A peer raising the cap cannot make this process send, or allocate for, more than it allows.
  peer.block().max_message_bytes = ~std::uint64_t{0};
  EXPECT_THROW(queue.put(std::vector<std::byte>(1025), in(1s)), transport::message_too_large);
}

// ---- random garbage ---------------------------------------------------------------------------

// Every call on a queue whose control block holds garbage returns, or ends in a process_error,
// within its deadline.
void expect_every_call_typed(process_queue& queue, std::uint64_t seed) {
  const auto call_within = [&](const char* what, auto&& call) {
    const auto start = deadline_clock::now();
    try {
      call(start + 50ms);
    } catch (const process_error&) {
    } catch (const std::exception& error) {
      ADD_FAILURE() << "seed " << seed << ", " << what << ": " << error.what();
    }
    EXPECT_LT(deadline_clock::now() - start, 1s) << "seed " << seed << ", " << what;
  };
  call_within("put", [&](auto deadline) { queue.put(small_message, deadline); });
  call_within("get", [&](auto deadline) { queue.get(deadline); });
  call_within("task_done", [&](auto) { queue.task_done(); });
  call_within("join", [&](auto deadline) { queue.join(deadline); });
  call_within("size", [&](auto) { queue.approximate_size(); });
}

// The locks and what they guard: from the writer lock up to the broken mark, which stays intact so
// that the calls go past it to the locks.
std::span<std::byte> lock_bytes(const peer_view& peer) {
  return peer.bytes().subspan(
      offsetof(queue_control, writer),
      offsetof(queue_control, broken_state) - offsetof(queue_control, writer));
}

void fill_with_random_bytes(std::span<std::byte> bytes, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  for (auto& byte : bytes)
    byte = std::byte(random());
}

TEST_F(QueueCorruption, RandomBytesOverTheWholeBlockAreTypedErrorsWithinTheDeadline) {
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    auto queue = process_queue::create(
        {.max_items = 4, .joinable = seed % 2 == 0, .purpose = test_purpose("random")});
    {
      const peer_view peer(queue);
      fill_with_random_bytes(peer.bytes(), seed);
    }
    expect_every_call_typed(queue, seed);
  }
}

TEST_F(QueueCorruption, RandomBytesOverTheLocksAreTypedErrorsWithinTheDeadline) {
  // Before the locks were futex words, about one seed in a hundred made glibc abort here (a
  // pthread mutex whose kind reads as priority-protected, with a ceiling out of range: tpp.c:83).
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    auto queue = process_queue::create(
        {.max_items = 4, .joinable = seed % 2 == 0, .purpose = test_purpose("random-locks")});
    {
      const peer_view peer(queue);
      fill_with_random_bytes(lock_bytes(peer), seed);
    }
    expect_every_call_typed(queue, seed);
  }
}

TEST_F(QueueCorruption, RandomBytesInOneWordAtATimeAreTypedErrorsWithinTheDeadline) {
  // One 4-byte word of garbage leaves the rest valid, so each field's own check is reached.
  std::mt19937_64 random(17);
  for (std::size_t offset = 0; offset + 4 <= sizeof(queue_control); offset += 4) {
    auto queue =
        process_queue::create({.max_items = 4, .joinable = true, .purpose = test_purpose("word")});
    {
      const peer_view peer(queue);
      const auto garbage = static_cast<std::uint32_t>(random());
      std::memcpy(peer.bytes().data() + offset, &garbage, sizeof(garbage));
    }
    expect_every_call_typed(queue, offset);
  }
}

// A worker that keeps writing random words over the queue's locks for `milliseconds`, after
// telling the coordinator it has started.
int vandal(std::span<const std::string> arguments) {
  const auto milliseconds = std::stoul(argument(arguments, 0));
  auto channel = transport::coordinator_connection();
  auto queue = process_queue::attach(std::array{4, 5, 6});
  const peer_view peer(queue);
  const auto locks = lock_bytes(peer);
  std::mt19937_64 random(std::stoull(argument(arguments, 1)));
  channel.send_record(std::uint32_t{1}, in(10s));
  const auto until = in(std::chrono::milliseconds(milliseconds));
  while (deadline_clock::now() < until) {
    const auto offset = random() % (locks.size() / 4) * 4;
    const auto garbage = static_cast<std::uint32_t>(random());
    std::memcpy(locks.data() + offset, &garbage, sizeof(garbage));
  }
  return stay_until_released(channel);
}
HANDOFF_WORKER_ROLE("queue_vandal", vandal);

TEST_F(QueueCorruption, AWorkerWritingGarbageWhileTheQueueIsInUseNeverCrashesTheCoordinator) {
  auto queue =
      process_queue::create({.max_items = 8, .joinable = true, .purpose = test_purpose("vandal")});
  transport::worker_pool pool(
      "vandal", 1,
      {.role = "queue_vandal", .arguments = {"500", "3"}, .extra_fds = queue.descriptors()});
  pool.channel(0).receive_record<std::uint32_t>(in(10s));
  std::size_t calls = 0;
  const auto until = in(700ms);
  while (deadline_clock::now() < until) {
    expect_every_call_typed(queue, calls);
    ++calls;
  }
  EXPECT_GT(calls, 0U);
  pool.shutdown_expecting_success(10s);
}

}  // namespace
}  // namespace handoff::patterns
