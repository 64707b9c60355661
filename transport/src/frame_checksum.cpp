// frame_checksum through xxHash's own run-time dispatch. Built header-only, xxHash picks its vector
// code when it is compiled, and a build for generic x86-64 gets SSE2, a fraction of AVX2's rate on
// cached data. The shared library's XXH3_64bits_update_dispatch picks AVX-512, AVX2 or SSE2 on the
// machine it runs on, so the hash of every payload byte keeps up with the channels it verifies.
// Where the build found no such library (cmake/Dependencies.cmake), the header's own code hashes.
//
// With the library, this file alone uses its exported functions; every other file inlines
// xxHash, whose renamed symbols would not match them.
#if defined(HANDOFF_XXHASH_DISPATCH)
#undef XXH_INLINE_ALL
#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t's layout, so the state can live in this object
#include <xxh_x86dispatch.h>
#else
#include <xxhash.h>
#endif

#include <stdexcept>

#include "handoff/transport/tensor_frame.hpp"

namespace handoff::transport {

struct frame_checksum::state {
  XXH3_state_t xxh3;
};

frame_checksum::frame_checksum() : state_(std::make_unique<state>()) {
  XXH3_64bits_reset(&state_->xxh3);
}
frame_checksum::~frame_checksum() = default;
frame_checksum::frame_checksum(frame_checksum&&) noexcept = default;
frame_checksum& frame_checksum::operator=(frame_checksum&&) noexcept = default;

void frame_checksum::update(std::span<const std::byte> bytes) {
  if (!state_) throw std::logic_error("frame_checksum::update on a moved-from checksum");
  if (bytes.empty()) return;
#if defined(HANDOFF_XXHASH_DISPATCH)
  XXH3_64bits_update_dispatch(&state_->xxh3, bytes.data(), bytes.size());
#else
  XXH3_64bits_update(&state_->xxh3, bytes.data(), bytes.size());
#endif
}

std::uint64_t frame_checksum::digest() const {
  if (!state_) throw std::logic_error("frame_checksum::digest on a moved-from checksum");
  return XXH3_64bits_digest(&state_->xxh3);
}

}  // namespace handoff::transport
