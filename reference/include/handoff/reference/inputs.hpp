#pragma once
// Seeded inputs. Zeros hide unwritten outputs and wrong indexing, so no value is ever zero: each is
// a random sign times a magnitude in [0.5, 2). A value depends only on (seed, index), so the same
// seed gives the same data whatever the thread count or the chunking.
//
// The generator is a counter-based hash built to vectorise: the seed and the index's high 32 bits
// become a 32-bit key once (splitmix64), and each value is one 32-bit multiply-xorshift hash
// (lowbias32) of the index's low 32 bits xor the key. 32-bit multiplies vectorise on x86-64
// (pmuludq, vpmulld); 64-bit ones do not, and a per-value call that rehashed the seed was so slow
// that pool_prep then measured it instead of its hand-off.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace handoff::reference {

inline constexpr float input_magnitude_min = 0.5f;
inline constexpr float input_magnitude_max = 2.0f;

namespace seeded_detail {

// splitmix64's finaliser: a bijective 64-bit mix, used once per seed and 2^32 indices.
constexpr std::uint64_t mix64(std::uint64_t state) noexcept {
  state += 0x9E3779B97F4A7C15ull;
  state = (state ^ (state >> 30)) * 0xBF58476D1CE4E5B9ull;
  state = (state ^ (state >> 27)) * 0x94D049BB133111EBull;
  return state ^ (state >> 31);
}

// lowbias32 (Wellons' hash-prospector, 0x21f0aaad/0x735a2d97): a bijective 32-bit mix whose every
// output bit flips with any input bit's flip with probability close to 1/2.
constexpr std::uint32_t mix32(std::uint32_t x) noexcept {
  x ^= x >> 16;
  x *= 0x21F0AAADu;
  x ^= x >> 15;
  x *= 0x735A2D97u;
  x ^= x >> 15;
  return x;
}

// The key of the 2^32 indices that share index_high (index >> 32) under one seed.
constexpr std::uint32_t key(std::uint64_t seed, std::uint64_t index_high) noexcept {
  return static_cast<std::uint32_t>(mix64(mix64(seed) ^ index_high));
}

// The top 24 bits give the magnitude, the lowest bit the sign. min + (max - min) * m / 2^24 is
// computed as 0.5 + float(3m) / 2^25: the conversion is the one rounding before the add, and the
// product by 2^-25 is exact, so the value is the same whether or not the compiler fuses the
// multiply and add (the scalar and vector paths must agree bit for bit).
constexpr float value_of_bits(std::uint32_t bits) noexcept {
  static_assert(input_magnitude_min == 0.5f && input_magnitude_max == 2.0f);
  const auto three_m = static_cast<std::int32_t>((bits >> 8) * 3u);  // below 2^26: exact int
  const float magnitude = input_magnitude_min + static_cast<float>(three_m) * 0x1.0p-25f;
  return std::bit_cast<float>(std::bit_cast<std::uint32_t>(magnitude) | (bits << 31));
}

constexpr float value(std::uint32_t key, std::uint32_t index_low) noexcept {
  return value_of_bits(mix32(index_low ^ key));
}

// out[i] = value(key, first_low + i), first_low + count <= 2^32: the bulk fill's loop, compiled
// for each vector width. All that this CPU can run, the baseline first, so that tests can hold each
// to the scalar definition.
using fill_block_function = void (*)(float* out, std::size_t count, std::uint32_t key,
                                     std::uint32_t first_low) noexcept;
std::vector<fill_block_function> runnable_fill_blocks();

}  // namespace seeded_detail

// The definition: the value of `index` in the stream of `seed`. The bulk fills below write exactly
// these values, faster (the key once per 2^32 indices, the hash vectorised).
constexpr float seeded_nonzero_value(std::uint64_t seed, std::uint64_t index) noexcept {
  return seeded_detail::value(seeded_detail::key(seed, index >> 32),
                              static_cast<std::uint32_t>(index));
}

// values[i] = seeded_nonzero_value(seed, first_index + i), on the calling thread (indices wrap
// modulo 2^64).
void fill_seeded_nonzero(std::span<float> values, std::uint64_t seed,
                         std::uint64_t first_index) noexcept;

// The whole stream from index 0: values[i] = seeded_nonzero_value(seed, i), in slices over
// threads when it is large.
void fill_seeded_nonzero(std::span<float> values, std::uint64_t seed);

// Every byte 0xFF: as float, a NaN, which the verification policy never accepts. Device buffers
// get the same pattern with cudaMemset(..., poison_byte, ...).
inline constexpr unsigned char poison_byte = 0xFF;

void poison(std::span<float> values) noexcept;

}  // namespace handoff::reference
