// The map messages as the coordinator checks a worker's result (map_protocol::check_result):
// what it accepts, and what a worker cannot slip past it.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "elementwise/map_protocol.hpp"

namespace handoff::patterns::elementwise::map_protocol {
namespace {

constexpr auto square = static_cast<std::uint32_t>(extended_workload::square);

// A result message as a worker sends it: the header, then its floats.
std::vector<std::byte> result_message(std::uint64_t item, double seconds) {
  const header head{kind::result, square, item, 1, seconds};
  const float value = 4.0f;
  std::vector<std::byte> message(sizeof(head) + sizeof(value));
  std::memcpy(message.data(), &head, sizeof(head));
  std::memcpy(message.data() + sizeof(head), &value, sizeof(value));
  return message;
}

TEST(MapProtocol, AResultForAnItemOfTheBatchIsTakenOnce) {
  std::vector<std::uint8_t> seen(3, 0);
  const auto message = parse(result_message(2, 0.25), "worker");
  EXPECT_EQ(check_result(message, square, 1, seen), 2u);
  EXPECT_EQ(message.values.at(0), 4.0f);
  EXPECT_THROW(check_result(message, square, 1, seen), transport::process_error) << "twice";
  EXPECT_THROW(check_result(parse(result_message(3, 0.25), "worker"), square, 1, seen),
               transport::process_error)
      << "outside the batch";
}

// Found by fuzz/map_message_fuzzer.cpp: a result whose compute time was negative, not a number or
// infinite was taken, and its time added to the row's kernel stage.
TEST(MapProtocol, AResultWithATimeNoWorkerCanTakeIsRefused) {
  for (const double seconds :
       {-1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    std::vector<std::uint8_t> seen(1, 0);
    EXPECT_THROW(check_result(parse(result_message(0, seconds), "worker"), square, 1, seen),
                 transport::process_error)
        << seconds << " s";
    EXPECT_EQ(seen[0], 0) << "a refused result marks nothing seen";
  }
}

}  // namespace
}  // namespace handoff::patterns::elementwise::map_protocol
