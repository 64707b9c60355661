#include "handoff/reference/inputs.hpp"

#include <cstring>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {
namespace {

// splitmix64's finaliser: a cheap bijective mix, good enough to decorrelate neighbouring indices.
std::uint64_t mix(std::uint64_t state) noexcept {
  state += 0x9E3779B97F4A7C15ull;
  state = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9ull;
  state = (state ^ (state >> 27)) * 0x94D049BB133111EBull;
  return state ^ (state >> 31);
}

}  // namespace

float seeded_nonzero_value(std::uint64_t seed, std::uint64_t index) noexcept {
  const std::uint64_t bits = mix(mix(seed) ^ index);
  const float unit = static_cast<float>(bits >> 40) * 0x1.0p-24f;  // [0, 1), 24 exact bits
  const float magnitude = input_magnitude_min + unit * (input_magnitude_max - input_magnitude_min);
  return (bits & 1u) ? -magnitude : magnitude;
}

void fill_seeded_nonzero(std::span<float> values, std::uint64_t seed) {
  parallel_for(values.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      values[i] = seeded_nonzero_value(seed, i);
  });
}

void poison(std::span<float> values) noexcept {
  if (!values.empty()) std::memset(values.data(), poison_byte, values.size_bytes());
}

}  // namespace handoff::reference
