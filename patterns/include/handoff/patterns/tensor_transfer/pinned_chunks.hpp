#pragma once
// A few page-locked chunk buffers and a copy stream of their own, for moving a device tensor
// through host memory chunk by chunk: while the channel works on one buffer, the copy engine fills
// (or empties) the others, so the device copies overlap the channel instead of preceding or
// following it. Each side of a transfer copies in one direction only, so each has its own stream.
// A device tensor keeps its staging (tensor_memory::staging), made with it, so sessions opened and
// closed around it, as every cold transfer is, do not page-lock memory.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns {

class tensor_memory;

// The channel takes a host-path frame's payload in pieces of this size, each hashed just before it
// goes and just after it lands, while it is in cache. A piece fits in a Unix socket's default send
// buffer (about 208 KiB) and four fit in the queue's 1 MiB pipe, so the sender hashes the next
// piece while the receiver reads this one: with 1 MiB pieces, the queue was slower at 256 MiB.
// (figures: docs/design/measured-along-the-way.md, "Why a frame's pieces are 128 KiB")
inline constexpr std::size_t frame_piece_bytes = std::size_t{128} << 10;
// A device tensor moves between device and staging in chunks of this many bytes, a whole number of
// pieces: large enough that a copy's launch costs little beside it.
inline constexpr std::size_t frame_chunk_bytes = std::size_t{1} << 20;
static_assert(frame_chunk_bytes % frame_piece_bytes == 0);
// Page-locked chunk buffers per side for a device tensor: on the sender, one with the channel, one
// with the checksum, two being copied down; on the receiver, one landing, three being copied up.
inline constexpr std::size_t staged_chunk_count = 4;

class pinned_chunks {
 public:
  pinned_chunks(std::size_t chunk_bytes, std::size_t count);
  // As many frame_chunk_bytes buffers as a tensor of `bytes` can use, up to staged_chunk_count;
  // one smaller buffer for a tensor smaller than a chunk.
  static std::unique_ptr<pinned_chunks> for_tensor(std::size_t bytes);
  // Waits for the copies still running, which read or write these buffers.
  ~pinned_chunks();
  pinned_chunks(const pinned_chunks&) = delete;
  pinned_chunks& operator=(const pinned_chunks&) = delete;

  std::size_t count() const noexcept { return done_.size(); }
  std::size_t chunk_bytes() const noexcept { return chunk_bytes_; }
  std::span<std::byte> buffer(std::size_t index) const;

  // Starts copying `bytes` at `offset` of a device tensor into buffer `index`, or out of it; the
  // copies run in the order they were started. wait(index) returns once the last copy started on
  // that buffer is done.
  void start_down(std::size_t index, const tensor_memory& source, std::size_t offset,
                  std::size_t bytes);
  void start_up(std::size_t index, tensor_memory& destination, std::size_t offset,
                std::size_t bytes);
  void wait(std::size_t index) const;
  void wait_all() const;

 private:
  std::size_t chunk_bytes_;
  pinned_buffer<std::byte> memory_;
  stream copies_;
  std::vector<event> done_;
};

}  // namespace handoff::patterns
