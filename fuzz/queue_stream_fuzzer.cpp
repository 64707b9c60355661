// libFuzzer target for the message stream of process_queue: arbitrary bytes written into the
// queue's pipe, as a peer that does not follow the protocol would write them, then read back with
// get until the stream is empty or refused. Every get must return a whole message no longer than
// the queue's max_message_bytes, or end in a typed error (a process_error: queue_empty,
// queue_broken, message_too_large, ...). Anything else is a finding: a crash, an ASan or UBSan
// report, another exception type, a hang past libFuzzer's timeout, or an allocation of what a
// length prefix claims beyond -malloc_limit_mb.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/process_errors.hpp"

namespace {

using namespace handoff::transport;

constexpr std::uint64_t max_message_bytes = 1 << 20;

void require(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "queue_stream_fuzzer: invariant broken: %s\n", invariant);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Within one pipe's capacity, so that writing never waits for a reader.
  if (size > (std::size_t{1} << 16)) return 0;
  auto queue = process_queue::create({.max_message_bytes = max_message_bytes, .purpose = "fuzz"});
  const int write_end = queue.descriptors().at(2);
  if (size > 0) require(::write(write_end, data, size) == static_cast<ssize_t>(size), "write");
  // Each whole message takes at least one byte of the stream, so this many gets drain it.
  for (std::size_t attempt = 0; attempt <= size; ++attempt) {
    try {
      const auto message = queue.get(deadline_clock::now());
      require(message.size() <= max_message_bytes, "a message within max_message_bytes");
    } catch (const process_error&) {
      break;
    }
  }
  return 0;
}
