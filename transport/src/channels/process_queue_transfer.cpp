// process_queue: put and get. A message is an 8-byte length followed by its bytes, written while
// holding the writer lock and read while holding the reader lock.
#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "handoff/transport/channels/process_queue.hpp"
#include "pipe_stream.hpp"
#include "queue_control.hpp"

namespace handoff::transport {
namespace {

using length_prefix = std::uint64_t;

// Pages partly read at the head of the pipe and partly written at its tail are not free space,
// so the room a put waits for leaves two pages spare.
constexpr std::size_t pipe_slack_bytes = 2 * 4096;

// Runs undo when the scope ends, unless the operation got far enough to commit.
template <class Undo>
class undo_unless_committed {
 public:
  explicit undo_unless_committed(Undo undo) : undo_(std::move(undo)) {}
  undo_unless_committed(const undo_unless_committed&) = delete;
  undo_unless_committed& operator=(const undo_unless_committed&) = delete;
  ~undo_unless_committed() {
    if (!committed_) undo_();
  }
  void commit() noexcept { committed_ = true; }

 private:
  Undo undo_;
  bool committed_ = false;
};

std::string describe_progress(std::size_t done, std::size_t total) {
  return std::to_string(done) + " of " + std::to_string(total) + " bytes";
}

}  // namespace

void process_queue::reserve_item_slot(deadline_clock::time_point deadline,
                                      const std::function<void()>& on_stall) {
  auto& block = control();
  if (max_items_ == 0) return;
  const auto claim_one = [&] {
    std::uint64_t reserved = block.reserved_items.load();
    while (reserved < max_items_) {
      if (block.reserved_items.compare_exchange_weak(reserved, reserved + 1)) return true;
    }
    // Only a put below the bound adds a place, so a count above it is none of its states.
    if (reserved > max_items_) {
      fail_corrupted(queue_corruption(purpose_, "count of reserved places",
                                      std::to_string(reserved),
                                      "above the bound of " + std::to_string(max_items_)));
    }
    return false;
  };
  if (!wait_until(block.taken, claim_one, deadline, on_stall)) {
    throw queue_full("put on queue " + purpose_ + ": still full (" + std::to_string(max_items_) +
                     " items) at the deadline");
  }
  block.writer.holds_item_slot = 1;
}

void process_queue::wait_for_pipe_room(std::uint64_t message_bytes,
                                       deadline_clock::time_point deadline,
                                       const std::function<void()>& on_stall) {
  // A message larger than the pipe can never fit whole: it waits for an empty pipe, and is then
  // streamed while the reader drains it.
  const std::size_t usable = pipe_capacity_ - std::min(pipe_capacity_ / 2, pipe_slack_bytes);
  const std::size_t needed =
      static_cast<std::size_t>(std::min<std::uint64_t>(message_bytes, usable));
  std::size_t unread = 0;
  const auto fits = [&] {
    unread = pipe_stream::unread_bytes(write_end_.get());
    return unread + needed <= usable;
  };
  if (!wait_until(control().taken, fits, deadline, on_stall)) {
    throw queue_full("put on queue " + purpose_ + ": no room in the pipe for a message of " +
                     std::to_string(message_bytes) + " bytes (" + std::to_string(unread) +
                     " bytes unread) before the deadline");
  }
}

void process_queue::await_spliced_pages_read(std::uint64_t copied_tail_bytes,
                                             deadline_clock::time_point deadline,
                                             const std::function<void()>& on_stall) {
  // Normally true at once (see put_streamed): the copied tail fills every buffer of the pipe.
  const auto only_the_tail_is_left = [&] {
    return pipe_stream::unread_bytes(write_end_.get()) <= copied_tail_bytes;
  };
  if (!wait_until(control().taken, only_the_tail_is_left, deadline, on_stall)) {
    // The message is whole, but the pipe may still read the caller's memory after the put
    // returns: a reader could then take bytes the caller has since changed.
    break_and_throw("spliced pages of a message were still unread at the deadline of its put");
  }
}

void process_queue::put_parts(std::initializer_list<std::span<const std::byte>> parts,
                              deadline_clock::time_point deadline, const peer_watch& watch) {
  length_prefix length = 0;
  for (const auto part : parts)
    length += part.size();
  auto part = parts.begin();
  put_streamed(
      length,
      [&] {
        while (part->empty())  // never past the end: the parts add up to length
          ++part;
        return *part++;
      },
      deadline, watch);
}

void process_queue::put_streamed(std::uint64_t length, const piece_source& next,
                                 deadline_clock::time_point deadline, const peer_watch& watch,
                                 std::uint64_t piece_stays_for) {
  auto& block = control();
  if (length > max_message_bytes_) {
    throw message_too_large("put on queue " + purpose_ + ": a message of " +
                            std::to_string(length) + " bytes is over the queue's cap of " +
                            std::to_string(max_message_bytes_) + "; nothing was sent");
  }
  throw_if_broken();
  const std::function<void()> on_stall = [&] {
    if (watch) watch();
    throw_if_broken();
  };
  const std::function<void()> on_stall_probing_readers = [&] {
    on_stall();
    probe_for_dead_peer(block.reader);
  };

  // Everything a put takes is taken under the writer lock and noted beside it, so that whoever
  // inherits the lock from a producer killed here can give it back (inherit_lock_of_dead_owner).
  if (!take_lock(block.writer, deadline, on_stall)) {
    throw queue_full("put on queue " + purpose_ +
                     ": another producer held the writer lock until the deadline");
  }
  shared_lock_hold writer(block.writer.lock);
  throw_if_broken();
  reserve_item_slot(deadline, on_stall);
  undo_unless_committed slot([&] {
    if (!block.writer.holds_item_slot) return;
    block.writer.holds_item_slot = 0;
    release_item_slot();
    wake_all(block.taken);
  });
  // Counted before the message can be seen, so a fast consumer's task_done never runs ahead.
  if (joinable_) {
    block.unfinished_tasks.fetch_add(1);
    block.writer.counted_task = 1;
  }
  undo_unless_committed task([&] {
    if (!block.writer.counted_task) return;
    block.writer.counted_task = 0;
    forget_unfinished_task();
  });
  wait_for_pipe_room(sizeof(length_prefix) + length, deadline, on_stall_probing_readers);

  length_prefix prefix = length;
  const std::size_t total = sizeof(prefix) + length;
  std::size_t written = 0;  // by the writes before the current one
  std::size_t writing = 0;  // by the current write, kept current by write_pieces
  // Splicing hands the pipe the pieces' own pages, much faster than copying them in, which
  // allocates and charges a page per 4 KiB (figures: docs/design/measured-along-the-way.md,
  // "Splicing into the process queue's pipe"). A spliced piece is read from the caller's memory, so
  // only a piece that stays unchanged while the pipe could still hold it is spliced. The message's
  // last pipe_capacity_ bytes are copied in: the pipe holds capacity / page size buffers, each of
  // at most a page, so once those bytes are all in, no spliced buffer is left in the pipe, and
  // nothing of the caller's memory outlives the put.
  const bool may_splice =
      piece_stays_for >= pipe_capacity_ && length >= 2 * static_cast<std::uint64_t>(pipe_capacity_);
  const std::uint64_t copied_tail_from = may_splice ? length - pipe_capacity_ : 0;
  bool spliced = false;
  block.writer.mid_message = 1;
  try {
    // The prefix goes out with the first piece; each later piece is asked for once the one before
    // it is in the pipe.
    std::vector<iovec> pieces{{&prefix, sizeof(prefix)}};
    std::uint64_t produced = 0;
    do {
      if (produced < length) {
        const auto piece = next();
        if (piece.empty() || piece.size() > length - produced) {
          throw channel_usage_error("put on queue " + purpose_ + ": a piece of " +
                                    std::to_string(piece.size()) + " bytes after " +
                                    describe_progress(produced, length) + " of a message");
        }
        pieces.push_back({const_cast<std::byte*>(piece.data()), piece.size()});
        produced += piece.size();
      }
      const bool splice = may_splice && produced <= copied_tail_from;
      spliced = spliced || splice;
      pipe_stream::write_pieces(
          write_end_.get(), std::exchange(pieces, {}), deadline, on_stall_probing_readers, writing,
          splice ? pipe_stream::pipe_write::splice : pipe_stream::pipe_write::copy);
      written += std::exchange(writing, 0);
    } while (produced < length && written == sizeof(prefix) + produced);
    if (spliced && written == total) {
      await_spliced_pages_read(length - copied_tail_from, deadline, on_stall_probing_readers);
    }
  } catch (...) {
    written += writing;
    if (written == 0) {
      block.writer.mid_message = 0;
    } else {
      mark_broken(block, "a put on queue " + purpose_ + " failed after " +
                             describe_progress(written, total) + " of a message");
    }
    throw;
  }
  if (written == 0) {
    block.writer.mid_message = 0;
    throw queue_full("put on queue " + purpose_ + ": the pipe had no room before the deadline");
  }
  if (written < total) {
    break_and_throw("the deadline of a put passed after " + describe_progress(written, total) +
                    " of a message");
  }
  // The slot and the task now belong to the message in the pipe. Cleared while still marked as
  // inside the message: a death in between breaks the queue rather than giving them back twice.
  block.writer.holds_item_slot = 0;
  block.writer.counted_task = 0;
  slot.commit();
  task.commit();
  block.writer.mid_message = 0;
  block.items.fetch_add(1);
}

std::vector<std::byte> process_queue::get(deadline_clock::time_point deadline,
                                          const peer_watch& watch) {
  std::vector<std::byte> message;
  const auto place = [&](std::uint64_t offset, std::uint64_t length) {
    if (offset == 0) message.resize(length);  // within max_message_bytes, checked before
    return std::span(message).subspan(offset);
  };
  take_message(max_message_bytes_, {place, {}}, deadline, watch);
  return message;
}

std::size_t process_queue::get_into(std::initializer_list<std::span<std::byte>> parts,
                                    deadline_clock::time_point deadline, const peer_watch& watch) {
  std::uint64_t room = 0;
  for (const auto part : parts)
    room += part.size();
  const auto place = [&](std::uint64_t offset, std::uint64_t) {
    for (const auto part : parts) {
      if (offset < part.size()) return part.subspan(offset);
      offset -= part.size();
    }
    return std::span<std::byte>{};  // never: the message fits the parts
  };
  return take_message(room, {place, {}}, deadline, watch);
}

std::uint64_t process_queue::get_streamed(std::uint64_t max_bytes, const piece_landing& landing,
                                          deadline_clock::time_point deadline,
                                          const peer_watch& watch) {
  return take_message(max_bytes, landing, deadline, watch);
}

std::uint64_t process_queue::take_message(std::uint64_t max_bytes, const piece_landing& landing,
                                          deadline_clock::time_point deadline,
                                          const peer_watch& watch) {
  auto& block = control();
  throw_if_broken();
  const std::function<void()> on_stall = [&] {
    if (watch) watch();
    throw_if_broken();
  };
  const std::function<void()> on_stall_probing_writers = [&] {
    on_stall();
    probe_for_dead_peer(block.writer);
  };

  if (!take_lock(block.reader, deadline, on_stall)) {
    throw queue_empty("get on queue " + purpose_ +
                      ": another consumer held the reader lock until the deadline");
  }
  shared_lock_hold reader(block.reader.lock);
  throw_if_broken();
  if (!pipe_stream::wait_readable(read_end_.get(), deadline, on_stall)) {
    throw queue_empty("get on queue " + purpose_ + ": no message before the deadline");
  }

  length_prefix length = 0;
  block.reader.mid_message = 1;
  try {
    const auto header = std::as_writable_bytes(std::span(&length, 1));
    const std::size_t got_header =
        pipe_stream::read_into(read_end_.get(), header, deadline, on_stall_probing_writers);
    if (got_header < header.size()) {
      break_and_throw("the deadline of a get passed after " +
                      describe_progress(got_header, header.size()) + " of a length prefix");
    }
    if (length > max_message_bytes_) {
      // Never allocate what an untrusted stream claims. The claim also means the stream is not
      // made of this queue's messages any more: no put sends over the cap.
      const std::string why = "a message claims " + std::to_string(length) +
                              " bytes, over the queue's cap of " +
                              std::to_string(max_message_bytes_);
      mark_broken(block, why);
      throw message_too_large("get on queue " + purpose_ + ": " + why);
    }
    if (length > max_bytes) {
      // The message cannot be put back, and leaving it would tear the stream.
      const std::string why =
          "a message of " + std::to_string(length) + " bytes does not fit the caller's buffer";
      mark_broken(block, why);
      throw message_too_large("get on queue " + purpose_ + ": " + why);
    }
    std::uint64_t got = 0;
    while (got < length) {
      const auto place = landing.place(got, length);
      if (place.empty()) {
        throw channel_usage_error("get on queue " + purpose_ + ": no room given for the rest of " +
                                  describe_progress(got, length) + " of a message");
      }
      const auto piece = place.first(std::min<std::uint64_t>(place.size(), length - got));
      const std::size_t got_piece =
          pipe_stream::read_into(read_end_.get(), piece, deadline, on_stall_probing_writers);
      got += got_piece;
      if (got_piece < piece.size()) break;
      if (landing.landed) landing.landed(piece);
    }
    if (got < length) {
      break_and_throw("the deadline of a get passed after " + describe_progress(got, length) +
                      " of a message body");
    }
  } catch (...) {
    mark_broken(block, "a get on queue " + purpose_ + " failed in the middle of a message");
    throw;
  }
  block.reader.mid_message = 0;
  block.items.fetch_sub(1);
  release_item_slot();
  reader.unlock();
  wake_all(block.taken);
  return length;
}

}  // namespace handoff::transport
