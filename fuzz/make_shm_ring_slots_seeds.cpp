// Writes the seed corpus of shm_ring_slots_fuzzer (ci/fuzz --seed): step sequences in which the
// peer updates the header as a real producer or consumer does (a slot record, then its counter),
// and the coordinator takes and gives slots; and near misses in which the peer writes what cannot
// be true (more slots published or released than exist, a record larger than its slot, this
// side's own counter moved, the ring closed).

#include <cstdint>
#include <string>
#include <vector>

#include "../transport/src/channels/shm_ring_layout.hpp"
#include "seed_writer.hpp"

namespace {

using namespace handoff::transport;

// The steps of shm_ring_slots_fuzzer.cpp.
enum step : std::uint8_t { write_word = 0, take = 2, give = 3, close_ring = 4 };

// The input's first byte: slots 1 + (shape & 7), 8 KiB slots with 8, the producer's side with 16.
constexpr std::uint8_t consumer_of(std::size_t slots) {
  return static_cast<std::uint8_t>(slots - 1);
}
constexpr std::uint8_t producer_of(std::size_t slots) {
  return static_cast<std::uint8_t>(16 + slots - 1);
}

// Offsets into the header, as the fuzzer addresses them (in units of 4 bytes).
struct offsets {
  std::size_t published, released, closed, records;
};
offsets header_offsets() {
  const shm_ring_header header;
  const auto at = [&](const void* field) {
    return static_cast<std::size_t>(static_cast<const char*>(field) -
                                    reinterpret_cast<const char*>(&header));
  };
  return {at(&header.published), at(&header.released), at(&header.closed), sizeof(header)};
}

class steps {
 public:
  explicit steps(std::uint8_t shape) { bytes_.push_back(static_cast<std::byte>(shape)); }
  steps& then(step what) {
    bytes_.push_back(static_cast<std::byte>(what));
    return *this;
  }
  steps& peer_writes(std::size_t offset, std::uint64_t value) {
    then(write_word);
    bytes_.push_back(static_cast<std::byte>(offset / 4));
    return word(value);
  }
  steps& give_with(std::uint64_t value) {
    then(give);
    return word(value);
  }
  const std::vector<std::byte>& bytes() const { return bytes_; }

 private:
  steps& word(std::uint64_t value) {
    for (std::size_t i = 0; i < 8; ++i)
      bytes_.push_back(static_cast<std::byte>(value >> (8 * i)));
    return *this;
  }
  std::vector<std::byte> bytes_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  const offsets at = header_offsets();
  const auto record = [&](std::size_t slot) { return at.records + slot * 16; };
  const auto write = [&](const std::string& name, const steps& sequence) {
    seeds->write(name, sequence.bytes());
  };

  // A producer peer publishes slot 0 (100 bytes, tag 7); the coordinator takes and releases it.
  write("consumer-one-slot", steps(consumer_of(2))
                                 .peer_writes(record(0), 100)
                                 .peer_writes(record(0) + 8, 7)
                                 .peer_writes(at.published, 1)
                                 .then(take)
                                 .give_with(0)
                                 .then(take));
  // Every slot of a ring of 4 published, taken and released in turn; then the ring is closed.
  steps full(consumer_of(4));
  for (std::size_t slot = 0; slot < 4; ++slot)
    full.peer_writes(record(slot), 4096).peer_writes(record(slot) + 8, slot);
  full.peer_writes(at.published, 4);
  for (std::size_t slot = 0; slot < 4; ++slot)
    full.then(take).give_with(0);
  write("consumer-full-ring", full.peer_writes(at.closed, 1).then(take));
  // The coordinator fills two slots of 3; a consumer peer releases the first.
  write("producer-two-slots", steps(producer_of(3))
                                  .then(take)
                                  .give_with(50)
                                  .then(take)
                                  .give_with(4096)
                                  .peer_writes(at.released, 1)
                                  .then(take)
                                  .then(take)
                                  .then(take));

  write("near-published-beyond-the-ring",
        steps(consumer_of(2)).peer_writes(at.published, 3).then(take));
  write("near-record-beyond-its-slot",
        steps(consumer_of(1)).peer_writes(record(0), 4097).peer_writes(at.published, 1).then(take));
  write("near-released-beyond-published",
        steps(producer_of(2)).then(take).give_with(1).peer_writes(at.released, 2).then(take));
  write("near-published-moved-by-the-peer",
        steps(producer_of(2)).then(take).peer_writes(at.published, 1).give_with(1));
  write("near-released-moved-by-the-peer", steps(consumer_of(2))
                                               .peer_writes(at.published, 2)
                                               .then(take)
                                               .peer_writes(at.released, 1)
                                               .give_with(0));
  write("near-closed", steps(producer_of(1)).peer_writes(at.closed, 1).then(take));
  write("near-closed-by-this-side", steps(consumer_of(1)).then(close_ring).then(take));
  return 0;
}
