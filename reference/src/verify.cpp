#include "handoff/reference/verify.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {
namespace {

// Maps the float bit patterns onto a line where neighbouring floats are neighbouring integers,
// with -0 and +0 on the same point.
std::int64_t ordered_position(float value) noexcept {
  const auto bits = static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(value));
  return bits & 0x80000000 ? -(bits & 0x7FFFFFFF) : bits;
}

void record_mismatch(verification_result& result, std::size_t index, double expected,
                     double actual) {
  if (result.mismatches++ == 0) result.first = first_mismatch{index, expected, actual};
}

}  // namespace

std::string verification_result::describe() const {
  std::ostringstream text;
  text.precision(std::numeric_limits<double>::max_digits10);
  text << mismatches << " of " << checked << " wrong";
  if (first) {
    text << "; first at index " << first->index << ": expected " << first->expected << ", got "
         << first->actual;
  }
  return text.str();
}

std::uint32_t ulp_distance(float a, float b) noexcept {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<std::uint32_t>::max();
  const std::int64_t distance = ordered_position(a) - ordered_position(b);
  const std::int64_t magnitude = distance < 0 ? -distance : distance;
  return static_cast<std::uint32_t>(
      std::min<std::int64_t>(magnitude, std::numeric_limits<std::uint32_t>::max()));
}

void verification_result::add_slice(const verification_result& slice, std::size_t offset) {
  checked += slice.checked;
  mismatches += slice.mismatches;
  if (!first && slice.first) {
    first = slice.first;
    first->index += offset;
  }
}

verification_result verify_elementwise(std::span<const float> expected,
                                       std::span<const float> actual, std::uint32_t max_ulp) {
  if (expected.size() != actual.size()) {
    throw std::invalid_argument("verify_elementwise: expected " + std::to_string(expected.size()) +
                                " elements, got " + std::to_string(actual.size()));
  }
  // Slices in parallel: the multi-GPU pattern verifies 2^28 floats per copy after every benchmark,
  // seconds on one thread. Each slice counts its own mismatches; the first reported is the lowest
  // index of all, as a serial scan would report.
  verification_result result;
  result.checked = expected.size();
  std::mutex merge;
  parallel_for(expected.size(), [&](std::size_t begin, std::size_t end) {
    verification_result slice;
    for (std::size_t i = begin; i < end; ++i) {
      if (ulp_distance(expected[i], actual[i]) > max_ulp) {
        record_mismatch(slice, i, expected[i], actual[i]);
      }
    }
    if (slice.mismatches == 0) return;
    const std::scoped_lock lock(merge);
    result.mismatches += slice.mismatches;
    if (!result.first || slice.first->index < result.first->index) result.first = slice.first;
  });
  return result;
}

verification_result verify_reduction(double expected, double actual, double relative_tolerance) {
  verification_result result;
  result.checked = 1;
  const double scale = std::max(std::abs(expected), std::numeric_limits<double>::min());
  const bool within = std::abs(actual - expected) <= relative_tolerance * scale;
  if (!within || std::isnan(actual) || std::isnan(expected)) {
    record_mismatch(result, 0, expected, actual);
  }
  return result;
}

verification_result verify_count(std::uint64_t expected, std::uint64_t actual) {
  verification_result result;
  result.checked = 1;
  if (expected != actual) {
    record_mismatch(result, 0, static_cast<double>(expected), static_cast<double>(actual));
  }
  return result;
}

verification_result verify_bytes(std::span<const std::byte> expected,
                                 std::span<const std::byte> actual) {
  if (expected.size() != actual.size()) {
    throw std::invalid_argument("verify_bytes: expected " + std::to_string(expected.size()) +
                                " bytes, got " + std::to_string(actual.size()));
  }
  verification_result result;
  result.checked = expected.size();
  if (expected.empty() || std::memcmp(expected.data(), actual.data(), expected.size()) == 0) {
    return result;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (expected[i] != actual[i]) {
      record_mismatch(result, i, std::to_integer<int>(expected[i]),
                      std::to_integer<int>(actual[i]));
    }
  }
  return result;
}

}  // namespace handoff::reference
