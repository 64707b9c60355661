#pragma once
// A queue between processes with Python's multiprocessing.Queue / JoinableQueue semantics: many
// producers and many consumers in any processes, each message delivered whole to exactly one
// consumer, messages from one producer in the order it put them.
//
// The design is CPython's: the bytes travel through one OS pipe (enlarged to 1 MiB where allowed),
// as messages prefixed with their length. A small control block in shared memory holds a writer
// lock and a reader lock (futex words naming their holder's thread, which survive a holder's
// death like robust mutexes), so whole messages never interleave, plus the counts: items, the
// bound, and the unfinished tasks of a joinable queue. Unlike CPython there is no feeder thread:
// put writes the message itself, so it returns once the message is in the pipe.
//
// Failure model. A put waits (within its deadline) for room for the whole message before writing
// a byte, so a deadline normally ends a put or get with nothing sent (queue_full, queue_empty) and
// the stream intact. When a message is cut short instead (a deadline or a failed peer check in the
// middle of a message larger than the pipe, or a process killed mid-message holding a lock), the
// stream is torn: the queue is marked broken in shared memory, and every later call in any process
// is queue_broken. A process killed while holding a lock between messages breaks nothing: the next
// process to take the lock takes it over, and gives back the place in a bounded queue and the
// unfinished task that a dead put had taken (join probes for that too). A waiter notices a peer
// that died mid-message holding the other side's lock within peer_watch_interval, without any
// peer_watch.
//
// A process that writes garbage into the control block (every process attached to the queue maps
// it read-write) cannot crash another: every value read from it is checked, and one that is none
// of its states is shared_state_corrupted (which also marks the queue broken, where the mark
// itself is intact), within the caller's deadline.
//
// Limits: a consumer killed after get but before task_done leaves its task unfinished (as in
// Python), so join then ends at its deadline. A kill landing between two adjacent instructions of
// a put can leak one place of a bounded queue; never more, and never a place counted twice. A dead
// holder is recognised by its thread id: should the kernel hand that id to a new thread before a
// waiter looks, the waiter waits for that thread, and at worst until its deadline.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/channels/peer_watch.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace handoff::transport {

struct queue_options {
  std::size_t max_items = 0;  // 0: unbounded
  std::uint64_t max_message_bytes = 1ull << 31;
  bool joinable = false;
  std::string purpose = "queue";  // names the queue in errors and its shared-memory segment
};

struct queue_control;
struct queue_lock;

class process_queue {
 public:
  // In the coordinator, before the workers are spawned.
  static process_queue create(const queue_options& options);
  // What a worker must inherit, in this order: the control segment, the pipe's read end, its
  // write end.
  std::vector<int> descriptors() const;
  // In a worker: the descriptors as inherited (4, 5, 6 when passed as worker_launch::extra_fds).
  // They stay the caller's; the queue keeps duplicates. Anything else is channel_attach_error.
  static process_queue attach(std::span<const int> descriptors);

  process_queue(process_queue&&) noexcept = default;
  process_queue& operator=(process_queue&&) noexcept = default;
  ~process_queue() = default;

  // Blocks while a bounded queue is full or the pipe has no room: queue_full at the deadline.
  // A message over max_message_bytes is message_too_large, and nothing is sent.
  void put(std::span<const std::byte> message, deadline_clock::time_point deadline,
           const peer_watch& watch = {}) {
    put_parts({message}, deadline, watch);
  }
  // One message from several buffers, back to back, without copying them together.
  void put_parts(std::initializer_list<std::span<const std::byte>> parts,
                 deadline_clock::time_point deadline, const peer_watch& watch = {});
  // One message of `length` bytes whose pieces are made as it goes, for a producer that works on
  // each piece just before it is written (copies it from a device, hashes it while it is in
  // cache): next() returns the next piece, and is called again only once that piece is in the
  // pipe, all under the writer lock. Pieces that do not add up to length are channel_usage_error.
  // As for put_parts, a failure (a throw from next() too) before the first byte is written leaves
  // the queue intact, and one after it breaks the queue.
  //
  // piece_stays_for: how many more bytes of the message the caller writes before it changes or
  // frees a piece's memory (0: as soon as next() is called again; ~0: not before put_streamed
  // returns). Where that spans the pipe, the pieces of a message of at least twice the pipe are
  // spliced into it (vmsplice) rather than copied: the reader copies them out of the caller's
  // memory, which saves the writer's copy. Either way the put returns only once nothing of the
  // caller's memory is left in the pipe.
  using piece_source = std::function<std::span<const std::byte>()>;
  void put_streamed(std::uint64_t length, const piece_source& next,
                    deadline_clock::time_point deadline, const peer_watch& watch = {},
                    std::uint64_t piece_stays_for = 0);
  // The next message: queue_empty if none starts before the deadline.
  std::vector<std::byte> get(deadline_clock::time_point deadline, const peer_watch& watch = {});
  // As get, but the message lands in the caller's buffers, filled in order (like Python's
  // Connection.recv_bytes_into): no allocation per message. Returns the message's length. A
  // message longer than the buffers together is message_too_large, and the queue is broken.
  std::size_t get_into(std::initializer_list<std::span<std::byte>> parts,
                       deadline_clock::time_point deadline, const peer_watch& watch = {});
  // As get_into, but the caller places the message piece by piece and hears of each piece once it
  // has landed, so it can work on it while it is in cache: place(offset, length) returns where the
  // bytes of the length-byte message from offset on go (non-empty; only as much of it is filled as
  // the message has left), and landed(piece) follows once piece is filled. A message over
  // max_bytes is message_too_large, and the queue is broken, as is a throw from place or landed.
  // Returns the message's length.
  struct piece_landing {
    std::function<std::span<std::byte>(std::uint64_t offset, std::uint64_t length)> place;
    std::function<void(std::span<const std::byte>)> landed;  // may be empty
  };
  std::uint64_t get_streamed(std::uint64_t max_bytes, const piece_landing& landing,
                             deadline_clock::time_point deadline, const peer_watch& watch = {});

  // Joinable queues only (else channel_usage_error). Each put adds an unfinished task; task_done
  // finishes one, and one too many is queue_too_many_task_done.
  void task_done();
  // Returns once no task is unfinished; deadline_exceeded at the deadline.
  void join(deadline_clock::time_point deadline, const peer_watch& watch = {});

  // Messages put and not yet taken; a hint only, as in Python.
  std::size_t approximate_size() const;
  // Joinable queues: tasks put and not yet task_done; a hint only, for diagnostics and tests.
  std::size_t approximate_unfinished_tasks() const;
  const std::string& purpose() const noexcept { return purpose_; }

 private:
  // The settings, copied out of the control block once: another process may overwrite it later.
  struct settings {
    bool joinable = false;
    std::uint64_t max_items = 0;
    std::uint64_t max_message_bytes = 0;
    std::string purpose;
  };
  process_queue(shared_memory_segment control_segment, unique_fd read_end, unique_fd write_end,
                settings copied);

  // Returns once the pipe holds no more than the copied tail of the message just put, so no
  // spliced page of the caller's is left in it; at the deadline, the queue is broken.
  void await_spliced_pages_read(std::uint64_t copied_tail_bytes,
                                deadline_clock::time_point deadline,
                                const std::function<void()>& on_stall);
  // Reads one message of at most max_bytes where landing places it; returns its length.
  std::uint64_t take_message(std::uint64_t max_bytes, const piece_landing& landing,
                             deadline_clock::time_point deadline, const peer_watch& watch);

  [[noreturn]] void break_and_throw(const std::string& why);
  void throw_if_broken() const;
  // Locks a queue lock; false at the deadline. A lock inherited from a process that died inside a
  // message breaks the queue; one inherited between messages is taken over, and what the dead
  // put had taken (a place in a bounded queue, an unfinished task) is given back.
  bool take_lock(queue_lock& lock, deadline_clock::time_point deadline,
                 const std::function<void()>& on_stall);
  void inherit_lock_of_dead_owner(queue_lock& lock);
  // Checks the flags beside a lock just taken: each must be 0 or 1.
  void check_lock_flags(queue_lock& lock);
  // Marks the queue broken for every process, and throws the corruption.
  [[noreturn]] void fail_corrupted(const shared_state_corrupted& corruption);
  const char* label_of(const queue_lock& lock) const;
  // "queue <purpose>'s writer lock", made once: a lock is taken for every message.
  const std::string& lock_name(const queue_lock& lock) const;
  // While stalled on the other side: did the process holding its lock die? (Never blocks.)
  void probe_for_dead_peer(queue_lock& lock);
  void reserve_item_slot(deadline_clock::time_point deadline,
                         const std::function<void()>& on_stall);
  void release_item_slot() noexcept;
  void wait_for_pipe_room(std::uint64_t message_bytes, deadline_clock::time_point deadline,
                          const std::function<void()>& on_stall);
  void forget_unfinished_task() noexcept;
  shared_state_corrupted negative_task_count(std::int64_t count) const;
  queue_control& control() const;

  shared_memory_segment control_segment_;
  unique_fd read_end_;
  unique_fd write_end_;
  std::size_t pipe_capacity_ = 0;
  bool joinable_ = false;
  std::uint64_t max_items_ = 0;
  std::uint64_t max_message_bytes_ = 0;
  std::string purpose_;
  std::string writer_lock_name_;
  std::string reader_lock_name_;
};

}  // namespace handoff::transport
