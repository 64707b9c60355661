#include "handoff/patterns/tensor_transfer/framing.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "handoff/patterns/tensor_transfer/timed_stage.hpp"
#include "handoff/transport/piece_hasher.hpp"

namespace handoff::patterns {
namespace {

std::size_t pieces_of(std::size_t bytes, std::size_t piece_bytes) {
  if (piece_bytes == 0 || frame_chunk_bytes % piece_bytes != 0) {
    throw std::invalid_argument("a frame's payload pieces of " + std::to_string(piece_bytes) +
                                " bytes do not divide its " + std::to_string(frame_chunk_bytes) +
                                "-byte chunks");
  }
  return bytes / piece_bytes + (bytes % piece_bytes != 0 ? 1 : 0);
}

// A device tensor's payload goes through its staging, whose buffers must each hold a chunk; a
// host tensor's is used where it is.
pinned_chunks* staging_of(const tensor_memory& tensor) {
  if (tensor.device_data() == nullptr || tensor.bytes() == 0) return nullptr;
  pinned_chunks* staging = tensor.staging();
  if (staging == nullptr || staging->count() == 0 ||
      staging->chunk_bytes() < std::min(frame_chunk_bytes, tensor.bytes())) {
    throw std::logic_error("a device tensor's frame needs staging buffers of " +
                           std::to_string(frame_chunk_bytes) + " bytes or more");
  }
  return staging;
}

bool hash_on_own_thread(std::size_t bytes, payload_hashing hashing) {
  switch (hashing) {
    case payload_hashing::inline_only:
      return false;
    case payload_hashing::own_thread:
      return bytes > 0;
    case payload_hashing::automatic:
      break;
  }
  return transport::piece_hasher::pays_off(bytes);
}

// The bytes of chunk `chunk` of a tensor of `bytes`.
std::size_t chunk_length(std::size_t bytes, std::size_t chunk) {
  return std::min(frame_chunk_bytes, bytes - chunk * frame_chunk_bytes);
}

}  // namespace

transport::tensor_description flat_float_tensor(std::uint64_t bytes) {
  return {transport::element_type::float32, {bytes / sizeof(float)}};
}

// --- the sender's side ---

frame_writer::frame_writer(const tensor_memory& source, stage_times& stages,
                           std::size_t piece_bytes, payload_hashing hashing)
    : source_(source),
      staging_(staging_of(source)),
      stages_(stages),
      piece_bytes_(piece_bytes),
      piece_count_(pieces_of(source.bytes(), piece_bytes)) {
  header_ = timed_stage(stages_.serialize, [&] {
    return transport::encode_frame_header(flat_float_tensor(source_.bytes()), source_.bytes());
  });
  if (hash_on_own_thread(source_.bytes(), hashing)) {
    hasher_ = std::make_unique<transport::piece_hasher>();
  }
  if (staging_ == nullptr) return;
  // The first chunks start down at once; the channel meanwhile takes the header.
  const std::size_t chunks =
      source_.bytes() / frame_chunk_bytes + (source_.bytes() % frame_chunk_bytes != 0 ? 1 : 0);
  timed_stage(stages_.d2h, [&] {
    for (std::size_t chunk = 0; chunk < std::min(staging_->count(), chunks); ++chunk) {
      staging_->start_down(chunk, source_, chunk * frame_chunk_bytes,
                           chunk_length(source_.bytes(), chunk));
    }
  });
}

frame_writer::~frame_writer() = default;

std::span<const std::byte> frame_writer::next() {
  switch (part_) {
    case frame_part::header:
      part_ = piece_count_ > 0 ? frame_part::payload : frame_part::trailer;
      return header_;
    case frame_part::payload:
      return next_piece();
    case frame_part::trailer: {
      std::uint64_t checksum = 0;
      if (hasher_) {
        // The last chunk has gone: the checksum is ready once the thread has hashed it.
        hasher_->add(chunk_view((source_.bytes() - 1) / frame_chunk_bytes));
        checksum = hasher_->digest();
        stages_.serialize += hasher_->busy_seconds();
      } else {
        checksum = checksum_.digest();
      }
      trailer_ = transport::encode_frame_trailer(checksum);
      part_ = frame_part::done;
      return trailer_;
    }
    case frame_part::done:
      break;
  }
  return {};
}

std::uint64_t frame_writer::piece_stays_for() const {
  // next_piece() refills the buffer of chunk c - 2 at chunk c's first piece: after chunk c - 1.
  return staging_ == nullptr ? ~std::uint64_t{0} : frame_chunk_bytes;
}

std::span<const std::byte> frame_writer::chunk_view(std::size_t chunk) const {
  const std::size_t length = chunk_length(source_.bytes(), chunk);
  if (staging_ == nullptr) return source_.host_data().subspan(chunk * frame_chunk_bytes, length);
  return staging_->buffer(chunk % staging_->count()).first(length);
}

std::span<const std::byte> frame_writer::next_piece() {
  const std::size_t offset = piece_++ * piece_bytes_;
  const std::size_t length = std::min(piece_bytes_, source_.bytes() - offset);
  const std::size_t chunk = offset / frame_chunk_bytes;
  if (offset % frame_chunk_bytes == 0) {
    // A new chunk: the channel is done with the one before it, which goes to the checksum.
    if (hasher_ && chunk > 0) hasher_->add(chunk_view(chunk - 1));
    if (staging_ != nullptr) {
      const std::size_t buffers = staging_->count();
      // The chunk two back is off the channel and, normally, hashed by now: its buffer takes the
      // chunk `buffers` places after it. (One back may still be hashing.)
      const std::size_t ahead = chunk - 2 + buffers;
      if (chunk >= 2 && ahead * frame_chunk_bytes < source_.bytes()) {
        if (hasher_) timed_stage(stages_.serialize, [&] { hasher_->wait_hashed(chunk - 1); });
        timed_stage(stages_.d2h, [&] {
          staging_->start_down((chunk - 2) % buffers, source_, ahead * frame_chunk_bytes,
                               chunk_length(source_.bytes(), ahead));
        });
      }
      timed_stage(stages_.d2h, [&] { staging_->wait(chunk % buffers); });
    }
  }
  const auto piece = chunk_view(chunk).subspan(offset % frame_chunk_bytes, length);
  // A small payload is hashed now, then taken by the channel while it is in this core's cache.
  if (!hasher_) timed_stage(stages_.serialize, [&] { checksum_.update(piece); });
  if (piece_ == piece_count_) part_ = frame_part::trailer;
  return piece;
}

// --- the receiver's side ---

frame_reader::frame_reader(tensor_memory& destination, stage_times& stages, std::size_t piece_bytes,
                           payload_hashing hashing)
    : destination_(destination),
      staging_(staging_of(destination)),
      stages_(stages),
      piece_bytes_(piece_bytes),
      piece_count_(pieces_of(destination.bytes(), piece_bytes)) {
  if (hash_on_own_thread(destination_.bytes(), hashing)) {
    hasher_ = std::make_unique<transport::piece_hasher>();
    if (staging_ == nullptr) landing_ = destination_.landing();
  }
}

frame_reader::~frame_reader() {
  // Copies up still running after a failure would race whatever the destination sees next.
  if (staging_ == nullptr) return;
  try {
    staging_->wait_all();
  } catch (...) {
    // The failure that ended the receive is the one to report.
  }
}

std::span<std::byte> frame_reader::place() {
  placed_ = {};
  if (cut_short_) return placed_;
  switch (part_) {
    case frame_part::header:
      placed_ = header_bytes_;
      break;
    case frame_part::payload: {
      const std::size_t offset = piece_ * piece_bytes_;
      const std::size_t length = std::min(piece_bytes_, destination_.bytes() - offset);
      if (staging_ == nullptr && landing_.empty()) {
        placed_ = destination_.host_data().subspan(offset, length);
        break;
      }
      if (staging_ == nullptr) {
        placed_ = place_in_landing(offset, length);
        break;
      }
      const std::size_t chunk = offset / frame_chunk_bytes;
      const std::size_t buffer = chunk % staging_->count();
      // A chunk's first piece waits until its buffer's last use, the chunk `count` places back, is
      // over: copied up, and hashed.
      if (offset % frame_chunk_bytes == 0 && chunk >= staging_->count()) {
        timed_stage(stages_.h2d, [&] { staging_->wait(buffer); });
        if (hasher_) {
          const std::size_t pieces_per_chunk = frame_chunk_bytes / piece_bytes_;
          hasher_->wait_hashed((chunk - staging_->count() + 1) * pieces_per_chunk);
        }
      }
      placed_ = staging_->buffer(buffer).subspan(offset % frame_chunk_bytes, length);
      break;
    }
    case frame_part::trailer:
      placed_ = trailer_bytes_;
      break;
    case frame_part::done:
      break;
  }
  return placed_;
}

std::span<std::byte> frame_reader::place_in_landing(std::size_t offset, std::size_t length) {
  const std::size_t chunks = landing_.size() / frame_chunk_bytes;
  const std::size_t chunk = offset / frame_chunk_bytes;
  // A chunk's first piece waits until its buffer's last chunk, `chunks` back, is hashed and moved.
  if (offset % frame_chunk_bytes == 0 && chunk >= chunks) {
    hasher_->wait_hashed((chunk - chunks + 1) * (frame_chunk_bytes / piece_bytes_));
  }
  return landing_.subspan((chunk % chunks) * frame_chunk_bytes + offset % frame_chunk_bytes,
                          length);
}

void frame_reader::landed(std::size_t filled) {
  if (filled > placed_.size()) {
    throw std::logic_error("frame_reader: " + std::to_string(filled) +
                           " bytes landed in room for " + std::to_string(placed_.size()));
  }
  landed_bytes_ += filled;
  const auto piece = placed_.first(filled);
  const bool whole = filled == placed_.size();
  placed_ = {};
  if (!whole) cut_short_ = true;  // the channel's message ended early: nothing more is placed
  if (cut_short_) return;
  switch (part_) {
    case frame_part::header:
      part_ = piece_count_ > 0 ? frame_part::payload : frame_part::trailer;
      return;
    case frame_part::payload: {
      // Hashed while it is in cache; for a device tensor, a chunk whose pieces have all landed is
      // copied up while the next lands.
      if (hasher_) {
        hasher_->add(piece, landing_.empty()
                                ? nullptr
                                : destination_.host_data().subspan(piece_ * piece_bytes_).data());
      } else {
        timed_stage(stages_.deserialize, [&] { checksum_.update(piece); });
      }
      const std::size_t end = ++piece_ * piece_bytes_;
      if (staging_ != nullptr && (end % frame_chunk_bytes == 0 || end >= destination_.bytes())) {
        const std::size_t chunk = (end - 1) / frame_chunk_bytes;
        timed_stage(stages_.h2d, [&] {
          staging_->start_up(chunk % staging_->count(), destination_, chunk * frame_chunk_bytes,
                             chunk_length(destination_.bytes(), chunk));
        });
      }
      if (piece_ == piece_count_) part_ = frame_part::trailer;
      return;
    }
    case frame_part::trailer:
      part_ = frame_part::done;
      return;
    case frame_part::done:
      break;
  }
  throw std::logic_error("frame_reader: bytes landed after the trailer");
}

const transport::frame_header& frame_reader::check_header() {
  if (header_) return *header_;
  if (part_ == frame_part::header) {
    throw transport::frame_truncated(
        "the frame ended after " + std::to_string(landed_bytes_) + " bytes, inside its " +
        std::to_string(transport::frame_header_bytes) + "-byte header");
  }
  header_ = timed_stage(stages_.deserialize, [&] {
    return transport::decode_frame_header(header_bytes_, destination_.bytes());
  });
  if (header_->payload_bytes != destination_.bytes()) {
    const auto claimed = header_->payload_bytes;
    header_.reset();
    throw transport::frame_shape_mismatch("frame carries " + std::to_string(claimed) +
                                          " payload bytes; the receiver expects " +
                                          std::to_string(destination_.bytes()));
  }
  return *header_;
}

void frame_reader::finish() {
  if (staging_ != nullptr) timed_stage(stages_.h2d, [&] { staging_->wait_all(); });
  const auto& header = check_header();
  if (part_ != frame_part::done) {
    throw transport::frame_truncated("the frame ended after " + std::to_string(landed_bytes_) +
                                     " of its " + std::to_string(frame_bytes()) + " bytes");
  }
  std::uint64_t checksum = 0;
  if (hasher_) {
    checksum = hasher_->digest();
    stages_.deserialize += hasher_->busy_seconds();
  } else {
    checksum = checksum_.digest();
  }
  timed_stage(stages_.deserialize,
              [&] { transport::verify_frame_trailer(header, trailer_bytes_, checksum); });
}

void require_frame_length(const frame_reader& reader, std::uint64_t message_bytes) {
  const std::uint64_t expected = reader.frame_bytes();
  if (message_bytes < expected) {
    throw transport::frame_truncated("a message of " + std::to_string(message_bytes) +
                                     " bytes is shorter than its " + std::to_string(expected) +
                                     "-byte frame");
  }
  if (message_bytes > expected) {
    throw transport::frame_trailing_bytes("a message of " + std::to_string(message_bytes) +
                                          " bytes is longer than its " + std::to_string(expected) +
                                          "-byte frame");
  }
}

}  // namespace handoff::patterns
