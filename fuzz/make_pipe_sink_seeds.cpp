// Writes the seed corpus of pipe_sink_fuzzer (ci/fuzz --seed): the streams a pipe sender writes,
// each message an 8-byte little-endian length and its bytes, and near misses for each way the sink
// refuses a stream (a length over the cap, a stream that ends inside a length or a message).

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "../bench/workers/pipe_sink.hpp"
#include "seed_writer.hpp"

namespace {

using bytes = std::vector<std::byte>;

void append_length(bytes& stream, std::uint64_t length) {
  for (std::size_t i = 0; i < 8; ++i)
    stream.push_back(static_cast<std::byte>(length >> (8 * i)));
}

bytes stream_of(std::initializer_list<std::size_t> lengths) {
  bytes stream;
  for (const std::size_t length : lengths) {
    append_length(stream, length);
    for (std::size_t i = 0; i < length; ++i)
      stream.push_back(static_cast<std::byte>(i * 131 + 7));
  }
  return stream;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  seeds->write("stream-empty", {});
  seeds->write("stream-0", stream_of({0}));
  seeds->write("stream-1", stream_of({1}));
  seeds->write("stream-3-0-100", stream_of({3, 0, 100}));
  seeds->write("stream-4096", stream_of({4096}));

  bytes over_the_cap = stream_of({2});
  append_length(over_the_cap, handoff::bench::pipe_sink_max_message_bytes + 1);
  seeds->write("near-over-the-cap", over_the_cap);
  bytes at_the_cap;
  append_length(at_the_cap, handoff::bench::pipe_sink_max_message_bytes);
  seeds->write("near-at-the-cap", at_the_cap);
  bytes torn_length = stream_of({5});
  torn_length.resize(torn_length.size() + 3, std::byte{1});
  seeds->write("near-torn-length", torn_length);
  bytes torn_message = stream_of({5, 300});
  torn_message.resize(torn_message.size() - 100);
  seeds->write("near-torn-message", torn_message);
  return 0;
}
