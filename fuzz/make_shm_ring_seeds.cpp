// Writes the seed corpus of shm_ring_attach_fuzzer: the segments of a few real rings, byte for
// byte, so that the fuzzer starts from headers attach accepts (ci/fuzz --seed).

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

int main(int argc, char** argv) {
  using namespace handoff::transport;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  std::filesystem::create_directories(corpus);
  struct shape {
    std::size_t slots;
    std::size_t bytes;
  };
  for (const shape ring_shape : {shape{1, 1}, shape{2, 4096}, shape{4, 5000}, shape{8, 1024}}) {
    const auto ring = shm_ring::create(
        {.slot_count = ring_shape.slots, .slot_bytes = ring_shape.bytes, .purpose = "seed"});
    const auto copy = shared_memory_segment::attach(ring.descriptor(), 1);
    const auto name =
        "ring-" + std::to_string(ring_shape.slots) + "x" + std::to_string(ring_shape.bytes);
    std::ofstream(corpus / name, std::ios::binary)
        .write(reinterpret_cast<const char*>(copy.bytes().data()),
               static_cast<std::streamsize>(copy.bytes().size()));
  }
  return 0;
}
