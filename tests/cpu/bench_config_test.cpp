#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "harness/bench_config.hpp"

namespace handoff::bench {
namespace {

struct arguments {
  explicit arguments(std::vector<std::string> values) : storage(std::move(values)) {
    for (auto& value : storage)
      pointers.push_back(value.data());
    count = static_cast<int>(pointers.size());
  }
  std::vector<std::string> storage;
  std::vector<char*> pointers;
  int count = 0;
};

TEST(BenchConfig, ConsumesHandoffFlagsAndKeepsTheRest) {
  arguments args(
      {"handoff_bench", "--handoff-smoke", "--benchmark_filter=x", "--handoff-max-elements=4096"});
  const auto config = parse_handoff_flags(args.count, args.pointers.data());
  EXPECT_TRUE(config.smoke);
  EXPECT_EQ(config.max_elements, 4096u);
  ASSERT_EQ(args.count, 2);
  EXPECT_STREQ(args.pointers[1], "--benchmark_filter=x");
}

TEST(BenchConfig, ShuffleSeedIsParsedAndZeroMeansNoShuffle) {
  arguments plain({"handoff_bench"});
  EXPECT_EQ(parse_handoff_flags(plain.count, plain.pointers.data()).shuffle_seed, 0u);
  arguments seeded({"handoff_bench", "--handoff-shuffle-families=42"});
  EXPECT_EQ(parse_handoff_flags(seeded.count, seeded.pointers.data()).shuffle_seed, 42u);
}

TEST(BenchConfig, BadValuesAreClearErrors) {
  for (const char* bad :
       {"--handoff-min-time=fast", "--handoff-min-time=nan", "--handoff-min-time=inf",
        "--handoff-max-elements=-3", "--handoff-max-elements=0",
        "--handoff-max-elements=18446744073709551615", "--handoff-shuffle-families=0",
        "--handoff-shuffle-families=x", "--handoff-unknown"}) {
    arguments args({"handoff_bench", bad});
    EXPECT_THROW(parse_handoff_flags(args.count, args.pointers.data()), std::invalid_argument)
        << bad;
  }
}

}  // namespace
}  // namespace handoff::bench
