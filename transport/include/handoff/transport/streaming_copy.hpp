#pragma once
// A copy into memory this CPU will not read again (a ring slot that a worker or a DMA engine reads
// next) with non-temporal stores: they skip reading each destination line into the cache before
// writing it, which a plain memcpy below glibc's non-temporal threshold (a few MiB) does, and
// which halved the producer's rate in queued_worker: 7.5 GB/s filling 4 MiB items against a
// 29 GB/s one-thread copy ceiling on an H100 host. It ends with a store fence, so a release
// store that publishes the destination after it also publishes its bytes.

#include <cstddef>

namespace handoff::transport {

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept;

}  // namespace handoff::transport
