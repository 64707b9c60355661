// Writes the seed corpus of queue_control_fuzzer: the control blocks of real queues in the states
// a peer leaves them in (fresh; bounded and joinable with messages and tasks in flight; broken with
// a reason; a lock held by a live thread, and by one that died between messages or in the middle
// of one), each followed by a script of calls (ci/fuzz --seed).

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "../transport/src/channels/queue_control.hpp"
#include "handoff/transport/channels/process_queue.hpp"
#include "handoff/transport/shared_memory_segment.hpp"
#include "seed_writer.hpp"

namespace {

using namespace handoff::transport;

// A thread id no thread has: above /proc/sys/kernel/pid_max's default, within the kernel's limit.
constexpr std::uint32_t gone_thread = (1u << 22) - 1;

std::vector<std::byte> seed_of(const process_queue& queue, std::vector<std::uint8_t> script,
                               void (*alter)(queue_control&) = nullptr) {
  const auto view = shared_memory_segment::attach(queue.descriptors()[0], sizeof(queue_control));
  auto& block = *reinterpret_cast<queue_control*>(view.bytes().data());
  if (alter) alter(block);
  std::vector<std::byte> seed(view.bytes().begin(), view.bytes().begin() + sizeof(queue_control));
  for (const auto op : script)
    seed.push_back(std::byte{op});
  return seed;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  const auto soon = [] { return deadline_clock::now() + std::chrono::seconds(5); };
  const std::vector<std::byte> message(24, std::byte{0x5a});
  // put 4 bytes, get, get_into, task_done, join, sizes, put_parts, put over the cap
  const std::vector<std::uint8_t> every_call = {0x20, 1, 0x26, 2, 3, 4, 5, 7};

  auto fresh = process_queue::create({.purpose = "seed"});
  seeds->write("fresh", seed_of(fresh, {}));

  auto busy = process_queue::create(
      {.max_items = 4, .max_message_bytes = 1 << 16, .joinable = true, .purpose = "seed-busy"});
  busy.put(message, soon());
  busy.put(message, soon());
  busy.get(soon());
  seeds->write("bounded-joinable-in-flight", seed_of(busy, every_call));

  auto broken = process_queue::create({.purpose = "seed-broken"});
  const std::uint64_t forged_length = std::uint64_t{1} << 40;
  if (::write(broken.descriptors()[2], &forged_length, sizeof(forged_length)) < 0) return 1;
  try {
    broken.get(soon());
  } catch (const process_error&) {
  }
  seeds->write("broken-with-reason", seed_of(broken, every_call));

  seeds->write(
      "writer-held-by-a-live-thread",
      seed_of(process_queue::create({.purpose = "seed"}), every_call,
              [](queue_control& block) { block.writer.lock.word = 1 | lock_waiters_flag; }));
  seeds->write(
      "writer-of-a-dead-put-between-messages",
      seed_of(process_queue::create({.purpose = "seed"}), every_call, [](queue_control& block) {
        block.writer.lock.word = gone_thread;
        block.writer.holds_item_slot = 1;
        block.writer.counted_task = 1;
        block.reserved_items = 1;
        block.unfinished_tasks = 1;
      }));
  seeds->write(
      "reader-of-a-dead-get-mid-message",
      seed_of(process_queue::create({.purpose = "seed"}), {1, 0x20}, [](queue_control& block) {
        block.reader.lock.word = gone_thread;
        block.reader.mid_message = 1;
      }));
  return 0;
}
