// The receiving sides of the host-path variants (queue, pipe, shm) under forged frames. Each frame
// is the variants' own (frame_writer over a host tensor), sent through the variant's channel the
// way its sender sends it, with a byte flipped or the frame cut off on the way:
// - a byte flipped anywhere in the payload (the first piece, a middle one, the last byte) or in
//   the trailer is frame_checksum_mismatch: every byte is checked before a tensor is accepted;
// - a sender that dies part way through the frame is the channel's typed error (end of file, a
//   broken queue, the peer watch), long before the deadline, and a whole message shorter than its
//   frame is frame_truncated;
// - the same frame untouched arrives bit for bit, so each of these can fail.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "handoff/patterns/tensor_transfer/framing.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/channels/shm_ring.hpp"

namespace handoff::patterns {
namespace {

using namespace std::chrono_literals;
using transport::connection;
using transport::deadline_clock;
using transport::frame_header_bytes;

// Three whole chunks and a short one, whose sender hashes inline; and nine and a bit, whose sender
// hashes on a thread of its own (whatever the machine, for this test).
constexpr std::size_t small_tensor_bytes = 3 * frame_chunk_bytes + 12;
constexpr std::size_t large_tensor_bytes = 9 * frame_chunk_bytes + 12;

payload_hashing hashing_for(std::size_t bytes) {
  return bytes < large_tensor_bytes ? payload_hashing::inline_only : payload_hashing::own_thread;
}
constexpr std::uint64_t seed = 0x5EED;
constexpr std::size_t no_offset = ~std::size_t{0};

deadline_clock::time_point in(deadline_clock::duration time) {
  return deadline_clock::now() + time;
}

// A tensor's frame as frame_writer makes it, piece by piece, with the byte at frame offset flip_at
// inverted and the frame ending after cut_at bytes (either may be no_offset).
class tampered_frame {
 public:
  tampered_frame(const tensor_memory& source, std::size_t flip_at, std::size_t cut_at)
      : writer_(source, stages_, frame_piece_bytes, hashing_for(source.bytes())),
        flip_at_(flip_at),
        cut_at_(cut_at) {}

  std::uint64_t frame_bytes() const { return writer_.frame_bytes(); }
  frame_part next_part() const { return sent_ >= cut_at_ ? frame_part::done : writer_.next_part(); }

  // The next piece; empty once the frame (or what is left of it) has gone.
  std::span<const std::byte> next() {
    if (sent_ >= cut_at_) return {};
    auto piece = writer_.next();
    cut_inside_ = piece.size() > cut_at_ - sent_;
    piece = piece.first(std::min<std::size_t>(piece.size(), cut_at_ - sent_));
    if (flip_at_ >= sent_ && flip_at_ - sent_ < piece.size()) {
      copy_.assign(piece.begin(), piece.end());
      copy_[flip_at_ - sent_] ^= std::byte{0xff};
      piece = copy_;
    }
    sent_ += piece.size();
    return piece;
  }
  // Whether the cut fell inside the piece next() returned last.
  bool cut_inside_a_piece() const { return cut_inside_; }

 private:
  stage_times stages_;
  frame_writer writer_;
  std::size_t flip_at_;
  std::size_t cut_at_;
  std::size_t sent_ = 0;
  bool cut_inside_ = false;
  std::vector<std::byte> copy_;
};

// One variant's channel: the receiving session the variant itself opens, and the sending end,
// which the test drives.
struct forged_link {
  std::unique_ptr<receiver_session> receiver;
  // Sends a frame on the sender's thread; returns once it is sent or the sender has given up.
  std::function<void(tampered_frame&)> send;
  // What the receiver notices of a sender that dies: its end closes, or its watch says so.
  std::function<void()> sender_dies;
  // One whole message of the channel (pipe and queue only), small enough not to block.
  std::function<void(std::span<const std::byte>)> send_message;
  // The receiver's peer watch: what it reports once the sender has died.
  std::atomic<bool> dead{false};
  transport::peer_watch watch = [this] {
    if (dead) throw transport::channel_closed("the forging sender has died");
  };
  // Tells a sender still waiting on the receiver that the test is over.
  std::atomic<bool> stop{false};
};

// Opens the receiving side as process B does: from an open_session and the descriptors after it.
std::unique_ptr<receiver_session> open_receiver(std::string_view variant,
                                                std::span<const int> descriptors,
                                                std::size_t bytes) {
  auto [ours, theirs] = connection::make_pair("test receiver", "test sender");
  command_record command{.command = receiver_command::open_session};
  command.set_variant(variant);
  command.descriptors = static_cast<std::uint32_t>(descriptors.size());
  command.bytes = bytes;
  for (const int descriptor : descriptors)
    ours.send_fd(descriptor, in(5s));
  return find_transfer_variant(variant).specifics.open_receiver(command, theirs, in(5s));
}

std::unique_ptr<forged_link> open_link(const std::string& variant, std::size_t bytes) {
  auto link = std::make_unique<forged_link>();
  if (variant == "pipe") {
    auto [ours, theirs] = connection::make_pair("tensor receiver (pipe)", "tensor sender (pipe)");
    const int descriptor = theirs.native_handle();
    link->receiver = open_receiver(variant, std::span(&descriptor, 1), bytes);
    auto sender = std::make_shared<std::optional<connection>>(std::move(ours));
    link->send = [sender](tampered_frame& frame) {
      try {
        (*sender)->send_streamed(
            frame.frame_bytes(), [&] { return frame.next(); }, in(30s));
      } catch (const transport::process_error&) {
        // Cut short: the message is left unfinished, as a dying sender leaves it.
      }
    };
    link->sender_dies = [sender] { sender->reset(); };  // closes the socket: end of file
    link->send_message = [sender](std::span<const std::byte> message) {
      (*sender)->send(message, in(5s));
    };
  } else if (variant == "queue") {
    auto queue = std::make_shared<transport::process_queue>(transport::process_queue::create(
        {.max_message_bytes = transport::frame_wire_bytes(bytes), .purpose = "test-tensor-queue"}));
    link->receiver = open_receiver(variant, queue->descriptors(), bytes);
    link->send = [queue](tampered_frame& frame) {
      try {
        queue->put_streamed(
            frame.frame_bytes(), [&] { return frame.next(); }, in(30s));
      } catch (const transport::process_error&) {
        // Cut short inside the message: the put breaks the queue, as a producer killed there does.
      }
    };
    link->sender_dies = [] {};  // the broken queue says so (process_queue.hpp's failure model)
    link->send_message = [queue](std::span<const std::byte> message) {
      queue->put(message, in(5s));
    };
  } else {
    auto ring = std::make_shared<transport::shm_ring>(transport::shm_ring::create(
        {.slot_count = 4, .slot_bytes = frame_piece_bytes, .purpose = "test-tensor-shm"}));
    const int descriptor = ring->descriptor();
    link->receiver = open_receiver(variant, std::span(&descriptor, 1), bytes);
    auto* raw = link.get();
    link->send = [ring, raw](tampered_frame& frame) {
      const auto gone = [raw] {
        if (raw->stop) throw transport::channel_closed("the receiver test is over");
      };
      try {
        while (frame.next_part() != frame_part::done) {
          // The shm variant's tags: header 1, payload 2, trailer 3 (shm_sessions.cpp).
          const auto tag = static_cast<std::uint64_t>(frame.next_part()) + 1;
          const auto piece = frame.next();
          if (frame.cut_inside_a_piece()) break;  // a slot is published whole or not at all
          const std::size_t slot = ring->acquire_free(in(30s), gone);
          std::memcpy(ring->slot(slot).data(), piece.data(), piece.size());
          ring->publish(slot, piece.size(), tag);
        }
      } catch (const transport::process_error&) {
      }
    };
    link->sender_dies = [raw] { raw->dead = true; };  // nothing closes: the watch must notice
  }
  return link;
}

class FrameStream : public testing::TestWithParam<std::string> {
 protected:
  FrameStream() { use_tensors_of(small_tensor_bytes); }

  void use_tensors_of(std::size_t bytes) {
    bytes_ = bytes;
    source_ = make_host_tensor(bytes);
    source_->fill_seeded(seed);
    destination_ = make_host_tensor(bytes);
    destination_->poison();
  }

  // Sends the tampered frame from a thread of its own while the variant's receiver takes it here;
  // rethrows what the receive threw. The sender dies once it has sent what it would.
  void transfer(std::size_t flip_at, std::size_t cut_at, deadline_clock::duration patience = 30s) {
    auto link = open_link(GetParam(), bytes_);
    tampered_frame frame(*source_, flip_at, cut_at);
    std::thread sender([&] {
      link->send(frame);
      link->sender_dies();
    });
    connection unused_control = connection::make_pair("a", "b").first;
    stage_times stages;
    try {
      link->receiver->receive(unused_control, *destination_, stages, in(patience), link->watch);
    } catch (...) {
      link->stop = true;
      link->receiver.reset();  // closes the receiver's end, so a sender still writing stops
      sender.join();
      throw;
    }
    sender.join();
  }

  void expect_every_flip_detected();

  std::size_t bytes_ = 0;
  std::unique_ptr<tensor_memory> source_;
  std::unique_ptr<tensor_memory> destination_;
};

constexpr std::size_t both_sizes[] = {small_tensor_bytes, large_tensor_bytes};

TEST_P(FrameStream, AnIntactFrameArrivesBitForBit) {
  for (const std::size_t bytes : both_sizes) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    use_tensors_of(bytes);
    transfer(no_offset, no_offset);
    EXPECT_TRUE(destination_->verify_seeded(seed).passed());
  }
}

TEST_P(FrameStream, AFlippedByteAnywhereInThePayloadOrTrailerIsAChecksumMismatch) {
  for (const std::size_t bytes : both_sizes) {
    SCOPED_TRACE(std::to_string(bytes) + " bytes");
    use_tensors_of(bytes);
    expect_every_flip_detected();
  }
}

void FrameStream::expect_every_flip_detected() {
  const std::size_t payload = frame_header_bytes;
  const std::size_t trailer = frame_header_bytes + bytes_;
  const std::pair<std::size_t, const char*> places[] = {
      {payload, "the first payload byte"},
      {payload + frame_chunk_bytes / 2 + frame_chunk_bytes, "the middle of the second chunk"},
      {trailer - 1, "the last payload byte"},
      {trailer, "the trailer's first byte"},
      {trailer + transport::frame_trailer_bytes - 1, "the trailer's last byte"},
  };
  for (const auto& [offset, where] : places) {
    SCOPED_TRACE(where);
    destination_->poison();
    try {
      transfer(offset, no_offset);
      ADD_FAILURE() << "a frame with " << where << " flipped was accepted";
    } catch (const transport::frame_checksum_mismatch& error) {
      EXPECT_NE(std::string(error.what()).find("but the trailer claims"), std::string::npos)
          << error.what();
    }
  }
}

TEST_P(FrameStream, ASenderDyingPartWayThroughTheFrameIsATypedErrorLongBeforeTheDeadline) {
  use_tensors_of(large_tensor_bytes);
  const std::pair<std::size_t, const char*> cuts[] = {
      {frame_header_bytes + frame_chunk_bytes + frame_chunk_bytes / 2, "in the payload"},
      {frame_header_bytes + bytes_ + 3, "in the trailer"},
  };
  for (const auto& [cut, where] : cuts) {
    SCOPED_TRACE(where);
    const auto start = deadline_clock::now();
    try {
      transfer(no_offset, cut);
      ADD_FAILURE() << "a frame cut " << where << " was accepted";
    } catch (const transport::channel_closed& error) {
      // pipe: end of file; shm: the peer watch.
      EXPECT_NE(GetParam(), "queue") << error.what();
    } catch (const transport::queue_broken& error) {
      // The put stopped inside its message, which breaks the queue for every reader.
      EXPECT_EQ(GetParam(), "queue") << error.what();
    }
    EXPECT_LT(deadline_clock::now() - start, 5s) << "the deadline was 30 s";
  }
}

// Shared memory has no end of file: without a watch, a frame whose sender stopped ends at the
// deadline, as deadline_exceeded.
class FrameStreamWithoutEndOfFile : public FrameStream {};

TEST_P(FrameStreamWithoutEndOfFile, WithoutAWatchAStalledFrameEndsAtTheDeadline) {
  auto link = open_link(GetParam(), bytes_);
  tampered_frame frame(*source_, no_offset, frame_header_bytes + 100);
  link->send(frame);
  connection unused_control = connection::make_pair("a", "b").first;
  stage_times stages;
  const auto start = deadline_clock::now();
  EXPECT_THROW(link->receiver->receive(unused_control, *destination_, stages, in(300ms), {}),
               transport::deadline_exceeded);
  EXPECT_GE(deadline_clock::now() - start, 300ms);
  EXPECT_LT(deadline_clock::now() - start, 5s);
}

// The channels that carry a message length: a whole message shorter than the frame it starts.
class FrameStreamWithMessages : public FrameStream {};

TEST_P(FrameStreamWithMessages, AWholeMessageShorterThanItsFrameIsTruncated) {
  auto link = open_link(GetParam(), bytes_);
  // A complete message of the channel that ends inside the frame's payload.
  std::vector<std::byte> message;
  tampered_frame frame(*source_, no_offset, frame_header_bytes + 1000);
  for (auto piece = frame.next(); !piece.empty(); piece = frame.next())
    message.insert(message.end(), piece.begin(), piece.end());
  link->send_message(message);
  connection unused_control = connection::make_pair("a", "b").first;
  stage_times stages;
  try {
    link->receiver->receive(unused_control, *destination_, stages, in(30s), link->watch);
    ADD_FAILURE() << "a frame of " << message.size() << " bytes was accepted";
  } catch (const transport::frame_truncated& error) {
    EXPECT_NE(std::string(error.what()).find("is shorter than its"), std::string::npos)
        << error.what();
  }
}

const auto variant_name = [](const auto& variant) { return variant.param; };
INSTANTIATE_TEST_SUITE_P(tensor_transfer, FrameStream, testing::Values("queue", "pipe", "shm"),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(tensor_transfer, FrameStreamWithMessages, testing::Values("queue", "pipe"),
                         variant_name);
INSTANTIATE_TEST_SUITE_P(tensor_transfer, FrameStreamWithoutEndOfFile, testing::Values("shm"),
                         variant_name);

}  // namespace
}  // namespace handoff::patterns
