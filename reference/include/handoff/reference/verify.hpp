#pragma once
// The verification policy. Elementwise results must match the reference exactly or within a number
// of units in the last place (1 by default). Reductions must be within a relative 1e-5 of a
// double-precision reference. NaN never passes, whatever the reference says.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace handoff::reference {

inline constexpr std::uint32_t elementwise_max_ulp = 1;
inline constexpr double reduction_relative_tolerance = 1e-5;

struct first_mismatch {
  std::size_t index = 0;
  double expected = 0.0;
  double actual = 0.0;
};

struct verification_result {
  std::size_t checked = 0;
  std::size_t mismatches = 0;
  std::optional<first_mismatch> first;

  bool passed() const noexcept { return mismatches == 0; }
  std::string describe() const;
  // Adds the verdict on a slice that starts at `offset` of the whole; the first mismatch reported
  // stays the lowest index when slices are added in order.
  void add_slice(const verification_result& slice, std::size_t offset);
};

// Distance in representable floats between a and b; the maximum for NaN or opposite infinities.
std::uint32_t ulp_distance(float a, float b) noexcept;

verification_result verify_elementwise(std::span<const float> expected,
                                       std::span<const float> actual,
                                       std::uint32_t max_ulp = elementwise_max_ulp);

verification_result verify_reduction(double expected, double actual,
                                     double relative_tolerance = reduction_relative_tolerance);

// For counts that must match exactly: launches executed, bytes received, hashes.
verification_result verify_count(std::uint64_t expected, std::uint64_t actual);

// For buffers that must match byte for byte, such as copies measured by the ceilings.
verification_result verify_bytes(std::span<const std::byte> expected,
                                 std::span<const std::byte> actual);

}  // namespace handoff::reference
