#pragma once
// The part of a process_queue that lives in shared memory: the locks that keep whole messages
// from interleaving, the counts, and the "broken" mark that every process checks.
//
// Any process attached to the queue can write anything here, so nothing in it is trusted: the
// settings are copied out once, at create or attach, and never read again; every lock word, lock
// flag, mark and count is checked where it is read, and a value that is none of its states is
// shared_state_corrupted (queue_corruption names what held it); text is read only up to the end of
// its field.

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "handoff/transport/channels/process_shared_sync.hpp"

namespace handoff::transport {

// A queue lock, with what its holder is in the middle of, so that whoever inherits the lock from a
// dead holder can tell a torn stream from an intact one and give back what the dead one took.
// The flags are guarded by the lock, and each is 0 or 1.
struct queue_lock {
  shared_lock lock;
  std::atomic<std::uint32_t> mid_message{0};      // the stream is torn if the holder dies now
  std::atomic<std::uint32_t> holds_item_slot{0};  // a put holding a place in a bounded queue
  std::atomic<std::uint32_t> counted_task{0};     // a put that added an unfinished task
};

struct queue_control {
  static constexpr std::uint64_t expected_magic = 0x5145554546464f48;  // "HOFFEUEQ"
  // 2: futex locks (shared_lock) instead of process-shared pthread mutexes.
  static constexpr std::uint32_t expected_version = 2;

  // Written once by the creator, before any other process can see the segment; read only by
  // attach.
  std::uint64_t magic = 0;
  std::uint32_t version = 0;
  std::uint32_t joinable = 0;
  std::uint64_t max_items = 0;
  std::uint64_t max_message_bytes = 0;
  char purpose[64] = {};

  // Producers hold the writer lock for a whole put, consumers the reader lock for a whole get.
  queue_lock writer;
  queue_lock reader;

  std::atomic<std::uint32_t> broken_state{0};  // 0 intact, 1 being marked, 2 marked
  char broken_reason[256] = {};                // readable once broken_state is 2

  std::atomic<std::int64_t> items{0};            // complete messages written minus messages read
  std::atomic<std::uint64_t> reserved_items{0};  // bounded queues: puts begun minus gets done
  shared_wakeup taken;                           // after every get: room for items and bytes
  std::atomic<std::int64_t> unfinished_tasks{0};
  shared_wakeup tasks_finished;  // when unfinished_tasks reaches zero, or the queue breaks
};

// The states of broken_state.
inline constexpr std::uint32_t queue_intact = 0;
inline constexpr std::uint32_t queue_being_marked = 1;
inline constexpr std::uint32_t queue_marked_broken = 2;

// Records the first reason the queue broke and wakes every waiter so that it notices.
void mark_broken(queue_control& control, const std::string& why) noexcept;
// Why the queue is broken, or nothing while it is intact; a mark that is none of its states is
// shared_state_corrupted.
std::optional<std::string> broken_reason(const queue_control& control, const std::string& purpose);

// "queue <purpose>'s <what> holds <value>, which ...": the error for a shared value that is
// none of its states.
shared_state_corrupted queue_corruption(const std::string& purpose, const std::string& what,
                                        const std::string& value, const std::string& why);

}  // namespace handoff::transport
