#pragma once
// A copy into memory this CPU will not read again (a ring slot that a worker or a DMA engine reads
// next) with non-temporal stores: they skip reading each destination line into the cache before
// writing it. With no destination reads, one thread's copy runs as fast as it keeps source lines
// in flight, so it walks four 4 KiB spans at once and prefetches the next four (as glibc's memcpy
// does for its largest copies). One sequential stream without prefetch, this copy's first form,
// filled queued_worker's slots at 7.6 GB/s on an H100 host whose one-thread memcpy of 256 MiB ran
// at 9.6 GB/s. On a VM of the same CPU (Emerald Rapids), filling them from a batch of 84 MB, one
// stream ran at 7.5-8.3 GB/s and four spans with prefetch at 9.9-10.5 GB/s; from sources already
// in cache (5 MB) both ran at 14 GB/s. It ends with a store fence, so a release store that
// publishes the destination after it also publishes its bytes.

#include <cstddef>

namespace handoff::transport {

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept;

}  // namespace handoff::transport
