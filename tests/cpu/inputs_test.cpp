#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::reference {
namespace {

constexpr std::uint64_t two_to_32 = std::uint64_t{1} << 32;
constexpr std::uint64_t last_index = std::numeric_limits<std::uint64_t>::max();

std::vector<float> bulk(std::size_t count, std::uint64_t seed, std::uint64_t first_index) {
  std::vector<float> values(count);
  poison(values);
  fill_seeded_nonzero(values, seed, first_index);
  return values;
}

// How many positions hold the same value in both.
std::size_t equal_count(const std::vector<float>& first, const std::vector<float>& second) {
  std::size_t equal = 0;
  for (std::size_t i = 0; i < first.size(); ++i)
    equal += first[i] == second[i];
  return equal;
}

// Pearson correlation of x[i] and y[i].
double correlation(const std::vector<float>& x, const std::vector<float>& y) {
  const auto n = static_cast<double>(x.size());
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sx += x[i];
    sy += y[i];
    sxx += double{x[i]} * x[i];
    syy += double{y[i]} * y[i];
    sxy += double{x[i]} * y[i];
  }
  const double cov = sxy / n - sx / n * sy / n;
  return cov / std::sqrt((sxx / n - sx / n * sx / n) * (syy / n - sy / n * sy / n));
}

// Starts across the index space: 0, either side of the 2^32 and 2^33 boundaries, far up, and the
// last indices before the 64-bit wrap.
const std::uint64_t first_indices[] = {0,
                                       1,
                                       12345,
                                       two_to_32 - 1000,
                                       two_to_32 - 1,
                                       two_to_32,
                                       2 * two_to_32 - 77,
                                       std::uint64_t{0x0123456789ABCDEF},
                                       last_index - 500};

TEST(SeededInputs, NeverZeroNeverNonFiniteAndInRangeOverManySeedsAndIndices) {
  for (std::uint64_t seed = 0; seed < 64; ++seed) {
    for (const std::uint64_t first : first_indices) {
      for (const float value : bulk(4099, seed * 0x9E3779B97F4A7C15ull + seed, first)) {
        ASSERT_TRUE(std::isfinite(value)) << "seed " << seed << " first " << first;
        ASSERT_NE(value, 0.0f) << "seed " << seed << " first " << first;
        ASSERT_GE(std::abs(value), input_magnitude_min) << "seed " << seed << " first " << first;
        ASSERT_LT(std::abs(value), input_magnitude_max) << "seed " << seed << " first " << first;
      }
    }
  }
}

// The magnitudes fill [0.5, 2) evenly, to its ends, and the signs are balanced.
TEST(SeededInputs, MagnitudesUniformSignsBalanced) {
  const auto values = bulk(std::size_t{1} << 20, 42, 0);
  constexpr std::size_t bins = 16;
  std::vector<std::size_t> per_bin(bins);
  std::size_t negatives = 0;
  float smallest = input_magnitude_max;
  float largest = 0;
  for (const float value : values) {
    const float magnitude = std::abs(value);
    smallest = std::min(smallest, magnitude);
    largest = std::max(largest, magnitude);
    const auto bin = static_cast<std::size_t>((magnitude - input_magnitude_min) /
                                              (input_magnitude_max - input_magnitude_min) * bins);
    ++per_bin.at(bin);
    negatives += value < 0;
  }
  EXPECT_LT(smallest, 0.5001f);
  EXPECT_GT(largest, 1.9999f);
  const double expected = static_cast<double>(values.size()) / bins;  // sigma about 0.4%
  for (std::size_t bin = 0; bin < bins; ++bin) {
    EXPECT_NEAR(static_cast<double>(per_bin[bin]), expected, 0.03 * expected) << "bin " << bin;
  }
  const double half = static_cast<double>(values.size()) / 2;  // sigma about 0.1%
  EXPECT_NEAR(static_cast<double>(negatives), half, 0.01 * half);
}

// Neighbours, and the same index under two seeds, are uncorrelated (|r| about 1/sqrt(n) = 0.002).
TEST(SeededInputs, NeighboursAndSeedsUncorrelated) {
  const std::size_t count = std::size_t{1} << 18;
  const auto values = bulk(count + 1, 3, 0);
  const std::vector<float> here(values.begin(), values.end() - 1);
  const std::vector<float> next(values.begin() + 1, values.end());
  EXPECT_LT(std::abs(correlation(here, next)), 0.01);
  EXPECT_LT(std::abs(correlation(here, bulk(count, 4, 0))), 0.01);
  // The signs of neighbours agree half the time.
  std::size_t same_sign = 0;
  for (std::size_t i = 0; i < count; ++i)
    same_sign += std::signbit(here[i]) == std::signbit(next[i]);
  EXPECT_NEAR(static_cast<double>(same_sign), count / 2.0, 0.01 * static_cast<double>(count));
}

TEST(SeededInputs, ValueDependsOnlyOnSeedAndIndex) {
  for (const std::uint64_t first : first_indices) {
    EXPECT_EQ(bulk(1000, 9, first), bulk(1000, 9, first)) << "first " << first;
    EXPECT_EQ(seeded_nonzero_value(9, first), seeded_nonzero_value(9, first));
  }
  std::vector<float> small(1000), large(300000);
  fill_seeded_nonzero(small, 9);
  fill_seeded_nonzero(large, 9);
  for (std::size_t i = 0; i < small.size(); ++i)
    ASSERT_EQ(small[i], large[i]) << "index " << i;
}

// The bulk fill writes the scalar definition's values bit for bit, from any first index (across
// the 2^32 boundaries where the key changes, and the 64-bit wrap), with sizes that leave a scalar
// tail.
TEST(SeededInputs, BulkFillEqualsTheScalarDefinition) {
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{0xA11CE}, last_index}) {
    for (const std::uint64_t first : first_indices) {
      for (const std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{63},
                                      std::size_t{64}, std::size_t{2000}, std::size_t{4099}}) {
        const auto values = bulk(count, seed, first);
        for (std::size_t i = 0; i < count; ++i) {
          ASSERT_EQ(std::bit_cast<std::uint32_t>(values[i]),
                    std::bit_cast<std::uint32_t>(seeded_nonzero_value(seed, first + i)))
              << "seed " << seed << " first " << first << " count " << count << " i " << i;
        }
      }
    }
  }
}

// Each vector width this CPU runs (baseline SSE2, AVX2, AVX-512) writes the scalar definition's
// values bit for bit: the fill picks the widest, so without this only one would be checked.
TEST(SeededInputs, EveryVectorWidthEqualsTheScalarDefinition) {
  const auto paths = seeded_detail::runnable_fill_blocks();
  ASSERT_FALSE(paths.empty());
  std::vector<float> values(4099);
  for (std::size_t path = 0; path < paths.size(); ++path) {
    for (const std::uint32_t key : {0u, 0x9E3779B9u, 0xFFFFFFFFu}) {
      for (const std::uint32_t first_low : {0u, 12345u, 0xFFFFFFFFu - 4099u}) {
        poison(values);
        paths[path](values.data(), values.size(), key, first_low);
        for (std::size_t i = 0; i < values.size(); ++i) {
          ASSERT_EQ(std::bit_cast<std::uint32_t>(values[i]),
                    std::bit_cast<std::uint32_t>(
                        seeded_detail::value(key, first_low + static_cast<std::uint32_t>(i))))
              << "path " << path << " of " << paths.size() << " key " << key << " first_low "
              << first_low << " i " << i;
        }
      }
    }
  }
}

// The threaded whole-stream fill (slices over threads) writes the same values.
TEST(SeededInputs, ThreadedFillEqualsTheScalarDefinition) {
  std::vector<float> values((std::size_t{1} << 20) + 3);
  fill_seeded_nonzero(values, 77);
  for (std::size_t i = 0; i < values.size(); ++i)
    ASSERT_EQ(values[i], seeded_nonzero_value(77, i)) << "index " << i;
}

// Pinned values: the stream is the same on every machine and build, whichever vector width ran.
TEST(SeededInputs, PinnedValues) {
  const struct {
    std::uint64_t seed, index;
    std::uint32_t bits;
  } pinned[] = {{0, 0, 0xBFD58A80u},
                {0xA11CE, 1048576, 0x3F9E5A17u},
                {0xB0B, two_to_32 + 5, 0x3F54EFAEu},
                {42, last_index, 0x3F5F0EE9u}};
  for (const auto& each : pinned) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(seeded_nonzero_value(each.seed, each.index)), each.bits)
        << "seed " << each.seed << " index " << each.index;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(bulk(1, each.seed, each.index)[0]), each.bits)
        << "seed " << each.seed << " index " << each.index;
  }
}

// Different seeds, consecutive or one bit apart, and the next 2^32 indices of one seed, are
// different streams.
TEST(SeededInputs, DistinctSeedsAndHighHalvesGiveDifferentStreams) {
  for (std::uint64_t seed = 0; seed < 64; ++seed) {
    const auto stream = bulk(1000, seed, 0);
    EXPECT_LT(equal_count(stream, bulk(1000, seed + 1, 0)), 10u) << "seed " << seed;
    EXPECT_LT(equal_count(stream, bulk(1000, seed ^ (std::uint64_t{1} << seed), 0)), 10u)
        << "seed " << seed;
    EXPECT_LT(equal_count(stream, bulk(1000, seed, two_to_32)), 10u) << "seed " << seed;
  }
}

TEST(Poison, EveryElementBecomesNaN) {
  std::vector<float> values(33, 1.0f);
  poison(values);
  for (float value : values)
    EXPECT_TRUE(std::isnan(value));
}

TEST(VectorAddReference, AddsElementwiseAcrossThreadSlices) {
  for (std::size_t count : {0u, 1u, 1023u, 1025u, (1u << 20) + 3u}) {
    std::vector<float> a(count), b(count), out(count);
    fill_seeded_nonzero(a, 1);
    fill_seeded_nonzero(b, 2);
    poison(out);
    vector_add(a, b, out);
    for (std::size_t i = 0; i < count; ++i) {
      ASSERT_EQ(out[i], a[i] + b[i]) << "count " << count << " index " << i;
    }
  }
}

TEST(VectorAddReference, RejectsMismatchedLengths) {
  std::vector<float> a(3), b(4), out(3);
  EXPECT_THROW(vector_add(a, b, out), std::invalid_argument);
}

}  // namespace
}  // namespace handoff::reference
