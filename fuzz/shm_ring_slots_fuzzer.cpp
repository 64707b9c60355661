// libFuzzer target for what an shm_ring reads from shared memory after attach: the counters, the
// close flag, the wake-up words and the slot records, which the peer process can overwrite at any
// moment. (shm_ring_attach covers the header's geometry; this covers everything the ring reads
// while it runs.) A real ring is created; the input picks the coordinator's role, consumer (it
// drains the worker's results) or producer (it fills the worker's inputs), and then a sequence of
// steps: the peer writes 8 bytes anywhere in the header page (counters, records, futex words), or
// the coordinator takes a slot (acquire_filled or acquire_free, with a deadline already passed,
// so that nothing waits), gives the oldest back (release or publish), or closes the ring.
// Every take must return a slot inside the ring (and, filled, at most slot_bytes used); every
// failure must be what the ring documents for a peer's doing: channel_corrupted, channel_closed or
// deadline_exceeded. Anything else is a finding: a crash, an ASan or UBSan report, another
// exception type, or channel_usage_error, which blames this process for what the peer wrote.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <deque>
#include <span>

#include "connection_script.hpp"
#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace {

using namespace handoff::transport;
using fuzz_support::require;

class input_reader {
 public:
  explicit input_reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  bool empty() const { return bytes_.empty(); }
  std::uint8_t byte() {
    if (bytes_.empty()) return 0;
    const std::uint8_t value = bytes_[0];
    bytes_ = bytes_.subspan(1);
    return value;
  }
  std::uint64_t word() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 8)
      value |= std::uint64_t{byte()} << shift;
    return value;
  }

 private:
  std::span<const std::uint8_t> bytes_;
};

enum class role { consumer, producer };

// The coordinator's side of the ring, and what it holds.
struct coordinator {
  shm_ring& ring;
  role side;
  std::deque<std::size_t> held;

  void take() {
    const auto no_wait = deadline_clock::now();
    if (side == role::consumer) {
      const auto filled = ring.acquire_filled(no_wait);
      require(filled.index < ring.slot_count(), "a filled slot inside the ring");
      require(filled.used_bytes <= ring.slot_bytes(), "a filled slot's bytes within the slot");
      const auto slot = ring.slot(filled.index);
      if (filled.used_bytes > 0) {
        volatile std::byte last = slot[filled.used_bytes - 1];
        (void)last;
      }
      held.push_back(filled.index);
    } else {
      const std::size_t index = ring.acquire_free(no_wait);
      require(index < ring.slot_count(), "a free slot inside the ring");
      held.push_back(index);
    }
  }

  void give(std::uint64_t value) {
    if (held.empty()) return;
    const std::size_t index = held.front();
    held.pop_front();
    if (side == role::consumer) {
      ring.release(index);
    } else {
      ring.publish(index, value % (ring.slot_bytes() + 1), value);
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  input_reader input({data, size});
  const std::uint8_t shape = input.byte();
  auto ring =
      shm_ring::create({.slot_count = 1U + (shape & 7U),
                        .slot_bytes = (shape & 8U) != 0 ? std::size_t{8192} : std::size_t{4096},
                        .purpose = "fuzz"});
  // The peer's mapping of the same pages; it writes anywhere before the slots.
  const auto peer = shared_memory_segment::attach(ring.descriptor(), 1);
  const std::size_t header_bytes = peer.bytes().size() - ring.slot_region().size();
  coordinator self{ring, (shape & 16U) != 0 ? role::producer : role::consumer, {}};
  bool closed = false;
  while (!input.empty() && !closed) {
    const std::uint8_t step = input.byte();
    try {
      switch (step % 5) {
        case 0:
        case 1: {
          const std::size_t offset = std::size_t{input.byte()} * 4;  // the first KiB
          const std::uint64_t value = input.word();
          std::memcpy(peer.bytes().data() + offset, &value,
                      std::min(sizeof(value), header_bytes - offset));
          break;
        }
        case 2:
          self.take();
          break;
        case 3:
          self.give(input.word());
          break;
        default:
          ring.close();
          break;
      }
    } catch (const channel_corrupted&) {
      closed = true;  // the coordinator gives up on a ring it cannot trust
    } catch (const channel_closed&) {
      closed = true;
    } catch (const deadline_exceeded&) {
    }
  }
  return 0;
}
