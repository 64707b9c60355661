#pragma once
// Seeded inputs. Zeros hide unwritten outputs and wrong indexing, so no value is ever zero: each is
// a random sign times a magnitude in [0.5, 2). A value depends only on (seed, index), so the same
// seed gives the same data whatever the thread count.

#include <cstddef>
#include <cstdint>
#include <span>

namespace handoff::reference {

inline constexpr float input_magnitude_min = 0.5f;
inline constexpr float input_magnitude_max = 2.0f;

float seeded_nonzero_value(std::uint64_t seed, std::uint64_t index) noexcept;

void fill_seeded_nonzero(std::span<float> values, std::uint64_t seed);

// Every byte 0xFF: as float, a NaN, which the verification policy never accepts. Device buffers
// get the same pattern with cudaMemset(..., poison_byte, ...).
inline constexpr unsigned char poison_byte = 0xFF;

void poison(std::span<float> values) noexcept;

}  // namespace handoff::reference
