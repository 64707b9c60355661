// Writes the seed corpus of queue_stream_fuzzer: the bytes a real queue's put leaves in its pipe
// for a few messages, read back from the pipe, so that the fuzzer starts from well-formed
// streams (ci/fuzz --seed).

#include <unistd.h>

#include <chrono>
#include <span>
#include <string>
#include <vector>

#include "handoff/transport/channels/process_queue.hpp"
#include "seed_writer.hpp"

int main(int argc, char** argv) {
  using namespace handoff::transport;
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  const std::vector<std::vector<std::size_t>> streams = {{0}, {1}, {3, 0, 17}, {100, 4096}};
  for (const auto& lengths : streams) {
    auto queue = process_queue::create({.max_message_bytes = 1 << 20, .purpose = "seed"});
    std::string name = "stream";
    for (const std::size_t length : lengths) {
      const std::vector<std::byte> message(length, std::byte{0x5a});
      queue.put(message, deadline_clock::now() + std::chrono::seconds(5));
      name += "-" + std::to_string(length);
    }
    std::vector<std::byte> bytes(1 << 16);
    const ssize_t got = ::read(queue.descriptors().at(1), bytes.data(), bytes.size());
    if (got < 0) return 1;
    seeds->write(name, std::span(bytes).first(static_cast<std::size_t>(got)));
  }
  return 0;
}
