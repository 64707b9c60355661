// process_queue: creation, attaching, the locks and the task counts. put and get are in
// process_queue_transfer.cpp.
#include "handoff/transport/channels/process_queue.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#include "pipe_stream.hpp"
#include "queue_control.hpp"

namespace handoff::transport {
namespace {

// A pipe this large holds a typical message whole, so a put rarely waits for the reader.
constexpr int preferred_pipe_bytes = 1 << 20;

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0) {
    throw process_error(std::string("making a queue pipe non-blocking: ") + std::strerror(errno));
  }
}

// Checks that fd is one end of a pipe, open for access (O_RDONLY or O_WRONLY), and duplicates it.
unique_fd adopt_pipe_end(int fd, int access, const char* which, ino_t& inode) {
  struct stat status {};
  if (fd < 0 || ::fstat(fd, &status) != 0 || !S_ISFIFO(status.st_mode)) {
    throw channel_attach_error("attaching a queue: descriptor " + std::to_string(fd) +
                               " (the pipe's " + which + ") is not a pipe");
  }
  if ((::fcntl(fd, F_GETFL) & O_ACCMODE) != access) {
    throw channel_attach_error("attaching a queue: descriptor " + std::to_string(fd) +
                               " is the wrong end of the pipe; expected its " + which);
  }
  inode = status.st_ino;
  unique_fd own(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
  if (own.get() < 0) throw process_error(std::string("dup: ") + std::strerror(errno));
  return own;
}

}  // namespace

process_queue::process_queue(shared_memory_segment control_segment, unique_fd read_end,
                             unique_fd write_end, settings copied)
    : control_segment_(std::move(control_segment)),
      read_end_(std::move(read_end)),
      write_end_(std::move(write_end)),
      pipe_capacity_(pipe_stream::capacity(write_end_.get())),
      joinable_(copied.joinable),
      max_items_(copied.max_items),
      max_message_bytes_(copied.max_message_bytes),
      purpose_(std::move(copied.purpose)),
      writer_lock_name_("queue " + purpose_ + "'s writer lock"),
      reader_lock_name_("queue " + purpose_ + "'s reader lock") {}

process_queue process_queue::create(const queue_options& options) {
  auto segment = shared_memory_segment::create_shareable(sizeof(queue_control), options.purpose);
  auto* block = new (segment.bytes().data()) queue_control{};
  block->magic = queue_control::expected_magic;
  block->version = queue_control::expected_version;
  block->joinable = options.joinable ? 1 : 0;
  block->max_items = options.max_items;
  block->max_message_bytes = options.max_message_bytes;
  const std::size_t name_length = std::min(options.purpose.size(), sizeof(block->purpose) - 1);
  std::copy_n(options.purpose.data(), name_length, block->purpose);

  auto [read_end, write_end] = make_cloexec_pipe();
  // Non-blocking is a property of the pipe's open file description, so it holds in every process
  // that inherits these ends; every wait here polls with a deadline instead.
  set_nonblocking(read_end.get());
  set_nonblocking(write_end.get());
  // Best effort: an unprivileged process may be refused more than the default 64 KiB.
  ::fcntl(write_end.get(), F_SETPIPE_SZ, preferred_pipe_bytes);
  return process_queue(
      std::move(segment), std::move(read_end), std::move(write_end),
      {options.joinable, options.max_items, options.max_message_bytes, options.purpose});
}

process_queue process_queue::attach(std::span<const int> descriptors) {
  if (descriptors.size() != 3) {
    throw channel_attach_error(
        "attaching a queue: expected 3 descriptors (control segment, "
        "pipe read end, pipe write end), got " +
        std::to_string(descriptors.size()));
  }
  auto segment = shared_memory_segment::attach(descriptors[0], sizeof(queue_control));
  const auto& block = *reinterpret_cast<const queue_control*>(segment.bytes().data());
  if (block.magic != queue_control::expected_magic ||
      block.version != queue_control::expected_version) {
    throw channel_attach_error("attaching a queue: descriptor " + std::to_string(descriptors[0]) +
                               " is shared memory but not a queue's control block (bad magic "
                               "or version)");
  }
  // Copied once, and checked: the block stays writable by every process attached to it.
  const settings copied{block.joinable != 0, block.max_items, block.max_message_bytes,
                        std::string(block.purpose, strnlen(block.purpose, sizeof(block.purpose)))};
  if (block.joinable > 1) {
    throw channel_attach_error("attaching queue " + copied.purpose +
                               ": its control block's joinable flag holds " +
                               std::to_string(block.joinable) + ", neither 0 nor 1");
  }
  ino_t read_inode = 0;
  ino_t write_inode = 0;
  auto read_end = adopt_pipe_end(descriptors[1], O_RDONLY, "read end", read_inode);
  auto write_end = adopt_pipe_end(descriptors[2], O_WRONLY, "write end", write_inode);
  if (read_inode != write_inode) {
    throw channel_attach_error("attaching a queue: descriptors " + std::to_string(descriptors[1]) +
                               " and " + std::to_string(descriptors[2]) +
                               " are ends of different pipes");
  }
  return process_queue(std::move(segment), std::move(read_end), std::move(write_end),
                       std::move(copied));
}

std::vector<int> process_queue::descriptors() const {
  return {control_segment_.descriptor(), read_end_.get(), write_end_.get()};
}

queue_control& process_queue::control() const {
  return *reinterpret_cast<queue_control*>(control_segment_.bytes().data());
}

std::size_t process_queue::approximate_size() const {
  return static_cast<std::size_t>(std::max<std::int64_t>(0, control().items.load()));
}

std::size_t process_queue::approximate_unfinished_tasks() const {
  return static_cast<std::size_t>(std::max<std::int64_t>(0, control().unfinished_tasks.load()));
}

void process_queue::throw_if_broken() const {
  if (const auto why = broken_reason(control(), purpose_)) {
    throw queue_broken("queue " + purpose_ + " is broken: " + *why);
  }
}

void process_queue::fail_corrupted(const shared_state_corrupted& corruption) {
  mark_broken(control(), corruption.what());
  throw corruption;
}

const char* process_queue::label_of(const queue_lock& lock) const {
  return &lock == &control().writer ? "writer" : "reader";
}

const std::string& process_queue::lock_name(const queue_lock& lock) const {
  return &lock == &control().writer ? writer_lock_name_ : reader_lock_name_;
}

void process_queue::break_and_throw(const std::string& why) {
  mark_broken(control(), why);
  throw_if_broken();
  throw queue_broken("queue " + purpose_ + " is broken: " + why);
}

bool process_queue::take_lock(queue_lock& lock, deadline_clock::time_point deadline,
                              const std::function<void()>& on_stall) {
  lock_outcome outcome = lock_outcome::timed_out;
  try {
    outcome = lock_shared(lock.lock, deadline, on_stall, lock_name(lock));
  } catch (const shared_state_corrupted& corruption) {
    fail_corrupted(corruption);
  }
  switch (outcome) {
    case lock_outcome::acquired:
      check_lock_flags(lock);
      return true;
    case lock_outcome::timed_out:
      return false;
    case lock_outcome::acquired_from_dead_owner:
      inherit_lock_of_dead_owner(lock);
      return true;
  }
  return false;
}

void process_queue::check_lock_flags(queue_lock& lock) {
  const std::pair<const std::atomic<std::uint32_t>*, const char*> flags[] = {
      {&lock.mid_message, "mid-message flag"},
      {&lock.holds_item_slot, "item-slot flag"},
      {&lock.counted_task, "counted-task flag"}};
  for (const auto& [flag, what] : flags) {
    const std::uint32_t value = flag->load();
    if (value > 1) {
      unlock_shared(lock.lock);
      fail_corrupted(queue_corruption(purpose_, std::string(label_of(lock)) + " lock's " + what,
                                      std::to_string(value), "neither 0 nor 1"));
    }
  }
}

void process_queue::inherit_lock_of_dead_owner(queue_lock& lock) {
  check_lock_flags(lock);
  if (lock.mid_message == 0) {
    // It died between messages, so the stream is intact. What its put had taken is given back,
    // or a bounded queue would shrink and join would wait for a task that never comes.
    if (lock.holds_item_slot) {
      lock.holds_item_slot = 0;
      release_item_slot();
      wake_all(control().taken);
    }
    if (lock.counted_task) {
      lock.counted_task = 0;
      forget_unfinished_task();
    }
    return;
  }
  mark_broken(control(), std::string("a process died holding the ") + label_of(lock) +
                             " lock in the middle of a message");
  unlock_shared(lock.lock);
  throw_if_broken();
}

void process_queue::probe_for_dead_peer(queue_lock& lock) {
  lock_outcome outcome = lock_outcome::timed_out;
  try {
    outcome = try_lock_shared(lock.lock, lock_name(lock));
  } catch (const shared_state_corrupted& corruption) {
    fail_corrupted(corruption);
  }
  switch (outcome) {
    case lock_outcome::timed_out:  // held by a live thread
      return;
    case lock_outcome::acquired:
      unlock_shared(lock.lock);
      return;
    case lock_outcome::acquired_from_dead_owner:
      inherit_lock_of_dead_owner(lock);
      unlock_shared(lock.lock);
      return;
  }
}

void process_queue::release_item_slot() noexcept {
  auto& block = control();
  if (max_items_ == 0) return;
  // Never below zero, whatever a dead process left half done: a wrapped count would block every
  // later put for good.
  std::uint64_t reserved = block.reserved_items.load();
  while (reserved > 0 && !block.reserved_items.compare_exchange_weak(reserved, reserved - 1)) {
  }
}

void process_queue::task_done() {
  auto& block = control();
  if (!joinable_) {
    throw channel_usage_error("task_done on queue " + purpose_ + ", which is not joinable");
  }
  std::int64_t unfinished = block.unfinished_tasks.load();
  do {
    if (unfinished < 0) fail_corrupted(negative_task_count(unfinished));
    if (unfinished == 0) {
      throw queue_too_many_task_done("task_done() called too many times on queue " + purpose_);
    }
  } while (!block.unfinished_tasks.compare_exchange_weak(unfinished, unfinished - 1));
  if (unfinished == 1) wake_all(block.tasks_finished);
}

shared_state_corrupted process_queue::negative_task_count(std::int64_t count) const {
  return queue_corruption(purpose_, "count of unfinished tasks", std::to_string(count),
                          "below zero");
}

void process_queue::forget_unfinished_task() noexcept {
  auto& block = control();
  std::int64_t unfinished = block.unfinished_tasks.load();
  while (unfinished > 0 &&
         !block.unfinished_tasks.compare_exchange_weak(unfinished, unfinished - 1)) {
  }
  if (unfinished == 1) wake_all(block.tasks_finished);
}

void process_queue::join(deadline_clock::time_point deadline, const peer_watch& watch) {
  auto& block = control();
  if (!joinable_) {
    throw channel_usage_error("join on queue " + purpose_ + ", which is not joinable");
  }
  const auto finished = [&] {
    throw_if_broken();
    const std::int64_t unfinished = block.unfinished_tasks.load();
    if (unfinished < 0) fail_corrupted(negative_task_count(unfinished));
    return unfinished == 0;
  };
  // A producer killed inside put may still own a task it added; taking over its lock gives it
  // back, so join ends instead of waiting for a message that will never be sent.
  const std::function<void()> on_stall = [&] {
    if (watch) watch();
    probe_for_dead_peer(block.writer);
  };
  if (!wait_until(block.tasks_finished, finished, deadline, on_stall)) {
    throw deadline_exceeded("join on queue " + purpose_ + ": " +
                            std::to_string(block.unfinished_tasks.load()) +
                            " tasks were still unfinished at the deadline");
  }
}

}  // namespace handoff::transport
