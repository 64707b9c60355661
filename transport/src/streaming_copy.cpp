#include "handoff/transport/streaming_copy.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace handoff::transport {

#if defined(__x86_64__)

namespace {

constexpr std::size_t line_bytes = 64;
// The L2 streamer prefetches within one 4 KiB page and starts again at the next: one stream
// leaves few source lines in flight, each page beginning with misses. Four spans copied in turn,
// line by line, keep four streams going, and the next four spans are prefetched while these are
// copied. Eight spans measured no faster than four.
constexpr std::size_t span_bytes = 4096;
constexpr std::size_t spans_per_step = 4;
constexpr std::size_t step_bytes = span_bytes * spans_per_step;

// One whole destination line (64-byte aligned): its four 16-byte stores fill one write-combining
// buffer, which then leaves as a single line write, with no read of the line.
inline void stream_line(std::byte* to, const std::byte* from) noexcept {
  const auto* in = reinterpret_cast<const __m128i*>(from);
  auto* out = reinterpret_cast<__m128i*>(to);
  const __m128i first = _mm_loadu_si128(in);
  const __m128i second = _mm_loadu_si128(in + 1);
  const __m128i third = _mm_loadu_si128(in + 2);
  const __m128i fourth = _mm_loadu_si128(in + 3);
  _mm_stream_si128(out, first);
  _mm_stream_si128(out + 1, second);
  _mm_stream_si128(out + 2, third);
  _mm_stream_si128(out + 3, fourth);
}

}  // namespace

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept {
  // Small copies gain nothing, and the head and tail around the aligned middle go by memcpy.
  constexpr std::size_t least_streamed = 64 << 10;
  if (bytes < least_streamed) {
    if (bytes > 0) std::memcpy(destination, source, bytes);
    return;
  }
  auto* to = static_cast<std::byte*>(destination);
  const auto* from = static_cast<const std::byte*>(source);
  const std::size_t head =
      (line_bytes - reinterpret_cast<std::uintptr_t>(to) % line_bytes) % line_bytes;
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;

  const std::size_t steps = bytes / step_bytes;
  for (std::size_t step = 0; step < steps; ++step) {
    const std::byte* step_from = from + step * step_bytes;
    std::byte* step_to = to + step * step_bytes;
    // The last step prefetches its own lines again rather than past the end of the source.
    const std::byte* next_from = step + 1 < steps ? step_from + step_bytes : step_from;
    for (std::size_t offset = 0; offset < span_bytes; offset += line_bytes) {
      for (std::size_t span = 0; span < spans_per_step; ++span) {
        const std::size_t at = span * span_bytes + offset;
        _mm_prefetch(reinterpret_cast<const char*>(next_from + at), _MM_HINT_T0);
        stream_line(step_to + at, step_from + at);
      }
    }
  }
  // Under one step is left: its whole lines in order, then the bytes after them.
  const std::size_t stepped = steps * step_bytes;
  const std::size_t lines = (bytes - stepped) / line_bytes;
  for (std::size_t line = 0; line < lines; ++line) {
    stream_line(to + stepped + line * line_bytes, from + stepped + line * line_bytes);
  }
  const std::size_t streamed = stepped + lines * line_bytes;
  std::memcpy(to + streamed, from + streamed, bytes - streamed);
  _mm_sfence();
}

#else

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept {
  if (bytes > 0) std::memcpy(destination, source, bytes);
}

#endif

}  // namespace handoff::transport
