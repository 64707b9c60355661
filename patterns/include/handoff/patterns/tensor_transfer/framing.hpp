#pragma once
// The article's serialisation, shared by the host-path variants (queue, pipe, shm): the sender
// brings the tensor's bytes to host memory (tensor.cpu()) and frames them with a checksum; the
// receiver validates the frame, lands the bytes in host memory and, for a device tensor, copies
// them up (tensor.cuda()).
//
// Both sides go through the tensor piece by piece, so that nothing passes over the whole tensor on
// its own. Timed step by step (256 MiB host tensor, frame version 1), a large share of a transfer
// was the sender's one-thread XXH3 over the whole tensor before the header could go, and, for the
// queue, a further share was the receiver's hash of the whole tensor after it had landed; the
// channel idled meanwhile. Now the digest goes in the frame's trailer. The sender hashes each
// piece inline, just before it goes, or, for a large payload on a machine with a core to spare,
// on a thread of its own one chunk behind the channel (piece_hasher), which leaves the sender
// writing only, as the pipe ceiling's sender does. The receiver hashes each piece right after it
// lands, while it is in cache: inline for a small payload, and for a large one on a thread of its
// own, as the pipe ceiling's reader does, which leaves the receiver's thread reading only. It
// checks the trailer before it accepts the tensor. The channel is the bound again.
//
// A large host tensor's pieces land, as the pipe ceiling's reader's do, in a few chunks that stay
// in cache (tensor_memory::landing), and the hashing thread moves each into the tensor with
// streaming stores once it has hashed it. Landed straight in a 256 MiB tensor, every line the
// channel wrote was read from memory first, and the host tensor's pipe transfer was slower than
// the device tensor's, which landed in its staging chunks.
// (figures: docs/design/measured-along-the-way.md, "Why a large host tensor lands in chunks")
//
// A device tensor's payload passes through the tensor's small ring of page-locked chunk buffers
// (pinned_chunks): the sender copies the chunks ahead down while the channel takes the pieces of
// the current one, and the receiver copies each chunk up once its pieces have landed, while the
// channel brings the next.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

#include "handoff/patterns/stage_times.hpp"
#include "handoff/patterns/tensor_transfer/pinned_chunks.hpp"
#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"
#include "handoff/transport/tensor_frame.hpp"

namespace handoff::transport {
class piece_hasher;
}

namespace handoff::patterns {

// How a side hashes. automatic: on a thread of its own where transport::piece_hasher::pays_off,
// inline otherwise.
enum class payload_hashing { automatic, inline_only, own_thread };

// A flat float32 tensor of this many bytes.
transport::tensor_description flat_float_tensor(std::uint64_t bytes);

// What a tensor's frame carries across a channel, in order.
enum class frame_part { header, payload, trailer, done };

// The sender's side: one tensor's frame as a sequence of pieces, each made when the channel asks
// for it: the header, the payload piece by piece (copied down first for a device tensor), then the
// trailer. serialize counts the framing and hashing, d2h the waits for copies down.
class frame_writer {
 public:
  // Payload pieces of piece_bytes (the last one shorter), which must divide frame_chunk_bytes; a
  // device tensor's go through source.staging().
  frame_writer(const tensor_memory& source, stage_times& stages,
               std::size_t piece_bytes = frame_piece_bytes,
               payload_hashing hashing = payload_hashing::automatic);
  // Stops the background checksum, if any, before the pieces it reads can go away.
  ~frame_writer();
  frame_writer(const frame_writer&) = delete;
  frame_writer& operator=(const frame_writer&) = delete;

  // Header, payload and trailer together.
  std::uint64_t frame_bytes() const { return transport::frame_wire_bytes(source_.bytes()); }
  // What the next call to next() returns.
  frame_part next_part() const { return part_; }
  // The next piece; it stays valid and unchanged until the following call, by which time the
  // channel must be done with it. Empty once the trailer has gone.
  std::span<const std::byte> next();
  // How many more bytes of the frame go out before a payload piece's memory changes: a host
  // tensor's stays as it is throughout; a staging buffer is refilled once the whole chunk after
  // it has gone. A channel that reads pieces later than it is handed them (a spliced pipe) must
  // be done with each within this many bytes.
  std::uint64_t piece_stays_for() const;

 private:
  std::span<const std::byte> next_piece();
  // Chunk `chunk` of the payload where the channel takes it from: the tensor, or staging.
  std::span<const std::byte> chunk_view(std::size_t chunk) const;

  const tensor_memory& source_;
  pinned_chunks* staging_;
  stage_times& stages_;
  std::size_t piece_bytes_;
  std::size_t piece_count_;
  std::size_t piece_ = 0;  // the next payload piece
  frame_part part_ = frame_part::header;
  transport::frame_header_bytes_array header_;
  transport::frame_trailer_bytes_array trailer_{};
  transport::frame_checksum checksum_;               // inline, for a small payload
  std::unique_ptr<transport::piece_hasher> hasher_;  // on a thread of its own, for a large one
};

// The receiver's side: where each piece of the frame lands (the header and trailer in buffers of
// their own, the payload straight into a host tensor or through staging for a device tensor),
// hashing each payload piece once it has landed. The tensor is the caller's only once finish() has
// returned. deserialize counts the validation and hashing, h2d the waits for copies up.
class frame_reader {
 public:
  // Pieces of piece_bytes, as the writer's; a device tensor's go through destination.staging().
  frame_reader(tensor_memory& destination, stage_times& stages,
               std::size_t piece_bytes = frame_piece_bytes,
               payload_hashing hashing = payload_hashing::automatic);
  // Waits for any copies up still running, so that a failed receive leaves none behind.
  ~frame_reader();
  frame_reader(const frame_reader&) = delete;
  frame_reader& operator=(const frame_reader&) = delete;

  // What a whole frame for this destination takes.
  std::uint64_t frame_bytes() const { return transport::frame_wire_bytes(destination_.bytes()); }
  // The part that place() gives room for.
  frame_part next_part() const { return part_; }
  // Where the next piece lands, in full (empty once the trailer is in); for a device tensor, waits
  // until a staging buffer is free.
  std::span<std::byte> place();
  // The first `filled` bytes of what place() gave have arrived. Fewer than it gave means the
  // frame was cut short: no more is placed, and finish() says so.
  void landed(std::size_t filled);
  // Validates the header against the destination (a frame_error otherwise); once it has landed.
  // finish() does it if the caller has not.
  const transport::frame_header& check_header();
  // Every piece has landed: waits for the copies up, then validates what is left and checks the
  // trailer against the hash of what landed (frame_truncated, frame_checksum_mismatch).
  void finish();

 private:
  tensor_memory& destination_;
  pinned_chunks* staging_;
  stage_times& stages_;
  std::size_t piece_bytes_;
  std::size_t piece_count_;
  std::size_t piece_ = 0;  // the payload piece place() gave last, or gives next
  std::uint64_t landed_bytes_ = 0;
  frame_part part_ = frame_part::header;
  bool cut_short_ = false;
  std::span<std::byte> placed_;
  transport::frame_header_bytes_array header_bytes_{};
  transport::frame_trailer_bytes_array trailer_bytes_{};
  std::optional<transport::frame_header> header_;
  transport::frame_checksum checksum_;               // inline, for a small payload
  std::unique_ptr<transport::piece_hasher> hasher_;  // on a thread of its own, for a large one
  // A host tensor's landing chunks, where the hasher is on its own thread (tensor_memory.hpp).
  std::span<std::byte> landing_;

  std::span<std::byte> place_in_landing(std::size_t offset, std::size_t length);
};

// A channel's whole-message length must be the frame's: frame_truncated when it is shorter,
// frame_trailing_bytes when longer.
void require_frame_length(const frame_reader& reader, std::uint64_t message_bytes);

}  // namespace handoff::patterns
