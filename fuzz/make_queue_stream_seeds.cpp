// Writes the seed corpus of queue_stream_fuzzer: the bytes a real queue's put leaves in its pipe
// for a few messages, read back from the pipe, so that the fuzzer starts from well-formed
// streams (ci/fuzz --seed).

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "handoff/transport/channels/process_queue.hpp"

int main(int argc, char** argv) {
  using namespace handoff::transport;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path corpus = argv[1];
  std::filesystem::create_directories(corpus);
  const std::vector<std::vector<std::size_t>> streams = {{0}, {1}, {3, 0, 17}, {100, 4096}};
  for (const auto& lengths : streams) {
    auto queue = process_queue::create({.max_message_bytes = 1 << 20, .purpose = "seed"});
    std::string name = "stream";
    for (const std::size_t length : lengths) {
      const std::vector<std::byte> message(length, std::byte{0x5a});
      queue.put(message, deadline_clock::now() + std::chrono::seconds(5));
      name += "-" + std::to_string(length);
    }
    std::vector<char> bytes(1 << 16);
    const ssize_t got = ::read(queue.descriptors().at(1), bytes.data(), bytes.size());
    if (got < 0) return 1;
    std::ofstream(corpus / name, std::ios::binary).write(bytes.data(), got);
  }
  return 0;
}
