#pragma once
// A copy into memory this CPU will not read again (a ring slot that a worker or a DMA engine reads
// next) with non-temporal stores: they skip reading each destination line into the cache before
// writing it. With no destination reads, one thread's copy runs as fast as it keeps source lines
// in flight, so it walks four 4 KiB spans at once and prefetches the next four (as glibc's memcpy
// does for its largest copies). One sequential stream without prefetch, this copy's first form,
// filled queued_worker's slots well below the one-thread memcpy ceiling; four spans with prefetch
// filled them faster from sources in memory, and no slower from sources already in cache (figures:
// docs/design/measured-along-the-way.md, "How fast one thread fills queued_worker's slots"). It
// ends with a store fence, so a release store that publishes the destination after it also
// publishes its bytes.

#include <cstddef>

namespace handoff::transport {

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept;

}  // namespace handoff::transport
