// libFuzzer target for shm_ring::attach, which maps a segment another process wrote and trusts
// nothing in its header: arbitrary bytes as the segment's contents must either attach as a ring
// whose every slot lies inside the segment, or be refused with channel_attach_error or a
// shared_memory_error. Anything else is a finding: a crash (a SIGBUS or SIGSEGV from a slot
// outside the mapping), an ASan or UBSan report, another exception type, or a ring that attaches
// but breaks one of the invariants checked below.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "handoff/transport/channels/channel_errors.hpp"
#include "handoff/transport/channels/shm_ring.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/shared_memory_segment.hpp"

namespace {

using namespace handoff::transport;

void require(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "shm_ring_attach_fuzzer: invariant broken: %s\n", invariant);
  std::abort();
}

void exercise_attach(const shared_memory_segment& segment) {
  try {
    const auto ring = shm_ring::attach(segment.descriptor());
    require(ring.slot_count() > 0, "a ring has slots");
    require(ring.slot_bytes() > 0, "a ring's slots have bytes");
    const std::byte* begin = ring.slot_region().data();
    const std::byte* end = begin + ring.slot_region().size();
    for (std::size_t index = 0; index < ring.slot_count(); ++index) {
      const auto slot = ring.slot(index);
      require(slot.data() >= begin && slot.data() + slot.size() <= end, "slots inside the region");
      // Touching both ends of every slot is what a SIGBUS from a short segment would show.
      volatile std::byte first = slot.front();
      volatile std::byte last = slot.back();
      (void)first;
      (void)last;
    }
  } catch (const channel_attach_error&) {
  } catch (const shared_memory_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Up to a few pages: enough for a header, its slot records and small slots.
  if (size == 0 || size > (std::size_t{1} << 16)) return 0;
  auto segment = shared_memory_segment::create_shareable(size, "fuzz");
  std::memcpy(segment.bytes().data(), data, size);
  exercise_attach(segment);
  return 0;
}
