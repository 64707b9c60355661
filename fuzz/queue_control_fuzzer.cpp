// libFuzzer target for the control block of process_queue: the shared memory every process
// attached to a queue maps read-write, holding its locks, the flags beside them, the broken mark
// and its reason, and the counts. The input's first bytes are written over a real queue's block,
// as a hostile or broken peer could write them; the rest is a script of calls (put, get, get_into,
// task_done, join, ...) made with a deadline of now, through the creator's handle and through one
// attached afterwards. Every call must return or end in a typed process_error; a message that
// arrives must be within the queue's own cap, a put over that cap must be refused whatever the
// block says, and a broken queue's reason must be read no further than its field (the block lives
// in shared memory, which AddressSanitizer does not watch, so this is checked by length). Anything
// else is a finding: a crash, an abort (as garbage in the process-shared pthread mutexes of control
// block version 1 caused), an ASan or UBSan report, another exception type, or a hang past
// libFuzzer's timeout.

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <span>
#include <vector>

#include "../transport/src/channels/queue_control.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace {

using namespace handoff::transport;

constexpr std::uint64_t max_message_bytes = 1 << 16;
constexpr std::size_t max_calls = 64;
// "queue fuzz is broken: " and a reason of at most sizeof(queue_control::broken_reason) - 1.
constexpr std::size_t max_broken_message_bytes = 64 + sizeof(queue_control::broken_reason);
// Without a script: one of each call, in an order that reaches a get after a put.
constexpr std::array<std::uint8_t, 8> default_script = {0x20, 1, 0x26, 2, 3, 4, 5, 7};

void require(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "queue_control_fuzzer: invariant broken: %s\n", invariant);
  std::abort();
}

// One call of the script, chosen by the low three bits of op; the others size what it sends.
// creator: the handle that made the queue, whose cap is max_message_bytes (an attached handle's is
// whatever the block said when it attached).
void call(process_queue& queue, std::uint8_t op, bool creator) {
  const std::vector<std::byte> message(op >> 3, std::byte{0x5a});
  const auto now = deadline_clock::now();
  switch (op & 7) {
    case 0:
      queue.put(message, now);
      return;
    case 1: {
      const auto got = queue.get(now);
      require(!creator || got.size() <= max_message_bytes, "a message within the queue's cap");
      return;
    }
    case 2: {
      std::array<std::byte, 16> head{};
      std::array<std::byte, 16> tail{};
      require(queue.get_into({head, tail}, now) <= head.size() + tail.size(),
              "get_into within the caller's buffers");
      return;
    }
    case 3:
      queue.task_done();
      return;
    case 4:
      queue.join(now);
      return;
    case 5:
      static_cast<void>(queue.approximate_size());
      static_cast<void>(queue.approximate_unfinished_tasks());
      return;
    case 6:
      queue.put_parts({message, message}, now);
      return;
    default: {
      const std::vector<std::byte> too_large(max_message_bytes + 1);
      try {
        queue.put(too_large, now);
      } catch (const message_too_large&) {
        return;
      }
      require(!creator, "a put over the queue's own cap is refused, whatever the block says");
    }
  }
}

void run_script(process_queue& queue, std::span<const std::uint8_t> script, bool creator) {
  for (const std::uint8_t op : script.first(std::min(script.size(), max_calls))) {
    try {
      call(queue, op, creator);
    } catch (const queue_broken& broken) {
      // The reason is read from shared memory: never past its field, whatever fills it.
      require(std::strlen(broken.what()) < max_broken_message_bytes, "a reason within its field");
    } catch (const process_error&) {
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto queue = process_queue::create({.max_items = 4,
                                      .max_message_bytes = max_message_bytes,
                                      .joinable = true,
                                      .purpose = "fuzz"});
  const std::size_t overlaid = std::min(size, sizeof(queue_control));
  {
    const auto peer = shared_memory_segment::attach(queue.descriptors()[0], sizeof(queue_control));
    std::memcpy(peer.bytes().data(), data, overlaid);
  }
  std::span<const std::uint8_t> script(data + overlaid, size - overlaid);
  if (script.empty()) script = default_script;
  run_script(queue, script, true);
  // What a worker attaching now would see: refused as no queue, or a queue that holds up too.
  std::optional<process_queue> attached;
  try {
    attached.emplace(process_queue::attach(queue.descriptors()));
  } catch (const channel_attach_error&) {
    return 0;
  }
  run_script(*attached, script, false);
  return 0;
}
