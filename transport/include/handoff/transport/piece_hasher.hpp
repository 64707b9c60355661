#pragma once
// A payload's checksum, computed on a thread of its own while the caller's thread works the
// channel. A sender hands each chunk to the channel, whose copies read it from memory, and then
// here; a receiver hands each piece here once it has landed. Either way the hash finds the bytes in
// cache, and leaves the caller's critical path, which is then the channel's alone. XXH3's streaming
// state is sequential, so one thread hashes, in order; it keeps up as long as hashing cached bytes
// outruns the channel.

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <span>
#include <thread>

#include "handoff/transport/tensor_frame.hpp"

namespace handoff::transport {

class piece_hasher {
 public:
  // Whether hashing a payload of `bytes` on a thread of its own beats hashing it inline: from
  // min_bytes (starting the thread costs tens of microseconds, well under 1% of moving that much),
  // on a machine of at least min_hardware_threads (the sender, its checksum, the receiver and its
  // checksum each busy one). On two busy cores a third thread was slower than hashing inline.
  static constexpr std::uint64_t min_bytes = std::uint64_t{8} << 20;
  static constexpr unsigned min_hardware_threads = 4;
  static bool pays_off(std::uint64_t bytes) {
    return bytes >= min_bytes && std::thread::hardware_concurrency() >= min_hardware_threads;
  }

  piece_hasher();
  // Stops the thread, dropping the pieces not yet hashed, and joins it.
  ~piece_hasher();
  piece_hasher(const piece_hasher&) = delete;
  piece_hasher& operator=(const piece_hasher&) = delete;

  // Queues the next piece; its bytes must stay valid and unchanged until it is hashed. With
  // move_to, the thread then copies the piece there with streaming stores: a receiver that lands
  // pieces in a small ring, as the pipe ceiling's reader does, has them moved into the tensor
  // off its critical path, and wait_hashed() then also means moved.
  void add(std::span<const std::byte> piece, std::byte* move_to = nullptr);
  // Returns once the first `pieces` pieces added are hashed.
  void wait_hashed(std::size_t pieces);
  // Waits for every piece added, then returns the checksum of them all.
  std::uint64_t digest();
  // Seconds the thread spent hashing (and moving) so far.
  double busy_seconds();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable changed_;
  struct queued_piece {
    std::span<const std::byte> bytes;
    std::byte* move_to;
  };
  std::deque<queued_piece> waiting_;
  std::size_t added_ = 0;
  std::size_t hashed_ = 0;
  bool stop_ = false;
  double busy_seconds_ = 0;
  frame_checksum checksum_;  // the thread's alone until it has hashed every piece
  std::thread thread_;       // last: it starts once the members above exist
};

}  // namespace handoff::transport
