#include "handoff/transport/streaming_copy.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace handoff::transport {

#if defined(__x86_64__)

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept {
  // Small copies gain nothing, and the head and tail around the aligned middle go by memcpy.
  constexpr std::size_t least_streamed = 64 << 10;
  if (bytes < least_streamed) {
    if (bytes > 0) std::memcpy(destination, source, bytes);
    return;
  }
  auto* to = static_cast<std::byte*>(destination);
  const auto* from = static_cast<const std::byte*>(source);
  const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(to) % 16) % 16;
  std::memcpy(to, from, head);
  to += head;
  from += head;
  bytes -= head;
  constexpr std::size_t block = 64;
  const std::size_t blocks = bytes / block;
  for (std::size_t index = 0; index < blocks; ++index) {
    const auto* in = reinterpret_cast<const __m128i*>(from + index * block);
    auto* out = reinterpret_cast<__m128i*>(to + index * block);
    const __m128i first = _mm_loadu_si128(in);
    const __m128i second = _mm_loadu_si128(in + 1);
    const __m128i third = _mm_loadu_si128(in + 2);
    const __m128i fourth = _mm_loadu_si128(in + 3);
    _mm_stream_si128(out, first);
    _mm_stream_si128(out + 1, second);
    _mm_stream_si128(out + 2, third);
    _mm_stream_si128(out + 3, fourth);
  }
  std::memcpy(to + blocks * block, from + blocks * block, bytes - blocks * block);
  _mm_sfence();
}

#else

void copy_streaming(void* destination, const void* source, std::size_t bytes) noexcept {
  if (bytes > 0) std::memcpy(destination, source, bytes);
}

#endif

}  // namespace handoff::transport
