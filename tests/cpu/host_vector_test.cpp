#include "handoff/reference/host_vector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include "handoff/reference/inputs.hpp"

namespace handoff::reference {
namespace {

// Large enough that several threads write it; small ones stay on the calling thread.
constexpr std::size_t many_threads_worth = std::size_t{24} << 20;

bool all_bytes_are(std::span<const std::byte> bytes, std::byte value) {
  return std::ranges::all_of(bytes, [value](std::byte each) { return each == value; });
}

TEST(HostVector, StartsAllZeroAsValueInitialisationWouldAtEverySize) {
  for (const std::size_t count :
       {std::size_t{0}, std::size_t{1}, std::size_t{1000}, many_threads_worth / 4 + 3}) {
    // Memory a poisoned vector just gave back is where the next allocation likely lands.
    { host_vector<float> dirty(count, 7.0f); }
    const host_vector<float> values(count);
    ASSERT_EQ(values.size(), count);
    EXPECT_TRUE(all_bytes_are(std::as_bytes(std::span(values)), std::byte{0})) << count;
  }
}

TEST(HostVector, KeepsTheValuesItIsGiven) {
  const host_vector<std::uint32_t> filled(many_threads_worth / 4, 0xA5A5A5A5u);
  EXPECT_TRUE(std::ranges::all_of(filled, [](std::uint32_t each) { return each == 0xA5A5A5A5u; }));
  const host_vector<std::uint32_t> copied(filled.begin() + 1, filled.end());
  EXPECT_EQ(copied.size(), filled.size() - 1);
  EXPECT_TRUE(std::ranges::equal(std::span(filled).subspan(1), copied));
}

TEST(Poison, EveryByteOfALargeBufferWrittenOverThreadsAndOfASmallOne) {
  for (const std::size_t count : {std::size_t{5}, many_threads_worth / 4 + 1}) {
    host_vector<float> values(count, 1.0f);
    poison(values);
    EXPECT_TRUE(all_bytes_are(std::as_bytes(std::span(values)), std::byte{poison_byte})) << count;
  }
}

}  // namespace
}  // namespace handoff::reference
