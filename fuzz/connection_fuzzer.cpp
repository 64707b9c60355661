// libFuzzer target for connection, the socketpair every worker talks to its coordinator on: its
// length-prefixed messages, its fixed-size records and the descriptors it passes (SCM_RIGHTS).
// The input is what a peer that does not follow the protocol sends (connection_script.hpp: pieces
// of bytes, each sent with sendmsg and some descriptors beside it), then the peer hangs up; the
// receiving end reads it with a sequence of calls the input also picks. Every call must return
// what it promises (a message within its cap, a record of its size, an open close-on-exec
// descriptor) or end in a process_error (message_too_large, channel_closed, or a plain
// process_error for a malformed message). Anything else is a finding: a crash, an ASan or UBSan
// report, another exception type, a deadline_exceeded (the peer has hung up, so nothing is left
// to wait for), an allocation beyond -malloc_limit_mb, or a descriptor left open once the
// connection is gone.

#include <fcntl.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "connection_script.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/process_errors.hpp"

namespace {

using namespace handoff::transport;
using fuzz_support::require;

constexpr std::uint64_t message_cap = 1 << 16;

// Record sizes of the real protocols: a ready record, a reply, a worker report.
struct small_record {
  std::array<std::byte, 8> bytes;
};
struct reply_record {
  std::array<std::byte, 40> bytes;
};
struct report_record {
  std::array<std::byte, 544> bytes;
};

// One call on the receiving end, as opcode picks it. False once the stream is over.
bool receive_once(connection& channel, std::uint8_t opcode, deadline_clock::time_point deadline) {
  switch (opcode % 7) {
    case 0: {
      const auto message = channel.receive(deadline, message_cap);
      require(message.size() <= message_cap, "a message within its cap");
      return true;
    }
    case 1:
      channel.receive_record<small_record>(deadline);
      return true;
    case 2:
      channel.receive_record<reply_record>(deadline);
      return true;
    case 3:
      channel.receive_record<report_record>(deadline);
      return true;
    case 4: {
      // Streaming: the length, then the body in pieces of a size the opcode picks.
      const std::uint64_t cap = std::uint64_t{1} << (opcode / 7 % 17);
      const std::uint64_t length = channel.receive_length(deadline, cap);
      require(length <= cap, "a length within its cap");
      const std::size_t piece = 1 + opcode / 7 % 5 * 13;
      std::vector<std::byte> buffer(piece);
      for (std::uint64_t left = length; left > 0;) {
        const auto step = static_cast<std::size_t>(std::min<std::uint64_t>(left, piece));
        channel.receive_body(std::span(buffer).first(step), deadline);
        left -= step;
      }
      return true;
    }
    case 5: {
      const unique_fd received = channel.receive_fd(deadline);
      const int flags = ::fcntl(received.get(), F_GETFD);
      require(flags >= 0, "a received descriptor is open");
      require((flags & FD_CLOEXEC) != 0, "a received descriptor closes on exec");
      return true;
    }
    default:
      channel.poll(std::chrono::milliseconds(0));
      return true;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz_support::script input = fuzz_support::script::parse({data, size});
  const std::size_t descriptors_before = fuzz_support::open_descriptors();
  {
    auto [receiver, sender] = connection::make_pair("fuzz peer", "coordinator");
    fuzz_support::send_script(sender.native_handle(), input);
    { const connection hang_up = std::move(sender); }
    // The peer has hung up, so no call may wait; the deadline only keeps a finding from hanging.
    const auto deadline = deadline_clock::now() + std::chrono::seconds(2);
    for (const std::uint8_t opcode : input.calls) {
      try {
        if (!receive_once(receiver, opcode, deadline)) break;
      } catch (const deadline_exceeded&) {
        require(false, "no wait once the peer has hung up");
      } catch (const channel_closed&) {
        break;
      } catch (const process_error&) {
        // message_too_large, or a malformed message: the next call reads on.
      }
    }
  }
  require(fuzz_support::open_descriptors() == descriptors_before, "no descriptor left open");
  return 0;
}
