#pragma once
// The part of a process_queue that lives in shared memory: the locks that keep whole messages
// from interleaving, the counts, and the "broken" mark that every process checks.

#include <pthread.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "handoff/transport/channels/process_shared_sync.hpp"

namespace handoff::transport {

// A queue lock, with what its holder is in the middle of, so that whoever inherits the lock from a
// dead holder can tell a torn stream from an intact one and give back what the dead one took.
// The fields are guarded by the mutex.
struct queue_lock {
  pthread_mutex_t mutex;
  std::uint32_t mid_message = 0;      // the stream is torn if the holder dies now
  std::uint32_t holds_item_slot = 0;  // a put holding a place in a bounded queue
  std::uint32_t counted_task = 0;     // a put that added an unfinished task
  char label[8] = {};                 // "writer" or "reader", for messages
};

struct queue_control {
  static constexpr std::uint64_t expected_magic = 0x5145554546464f48;  // "HOFFEUEQ"
  static constexpr std::uint32_t expected_version = 1;

  // Written once by the creator, before any other process can see the segment.
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

// Records the first reason the queue broke and wakes every waiter so that it notices.
void mark_broken(queue_control& control, const std::string& why) noexcept;
// Why the queue is broken, or nothing while it is intact.
std::optional<std::string> broken_reason(const queue_control& control);

}  // namespace handoff::transport
