// Writes the seed corpus of shm_ring_attach_fuzzer: the segments of a few real rings, byte for
// byte, so that the fuzzer starts from headers attach accepts (ci/fuzz --seed).

#include <string>

#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/transport/shared_memory_segment.hpp"
#include "seed_writer.hpp"

int main(int argc, char** argv) {
  using namespace handoff::transport;
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  struct shape {
    std::size_t slots;
    std::size_t bytes;
  };
  for (const shape ring_shape : {shape{1, 1}, shape{2, 4096}, shape{4, 5000}, shape{8, 1024}}) {
    const auto ring = shm_ring::create(
        {.slot_count = ring_shape.slots, .slot_bytes = ring_shape.bytes, .purpose = "seed"});
    const auto copy = shared_memory_segment::attach(ring.descriptor(), 1);
    seeds->write(
        "ring-" + std::to_string(ring_shape.slots) + "x" + std::to_string(ring_shape.bytes),
        copy.bytes());
  }
  return 0;
}
