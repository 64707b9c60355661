#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "harness/axis_choice.hpp"
#include "harness/bench_config.hpp"
#include "harness/family_registry.hpp"
#include "support/scoped_environment.hpp"

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

TEST(BenchConfig, PassesAreParsedAndOneByDefault) {
  arguments plain({"handoff_bench"});
  EXPECT_EQ(parse_handoff_flags(plain.count, plain.pointers.data()).passes, 1);
  arguments nine({"handoff_bench", "--handoff-passes=9"});
  EXPECT_EQ(parse_handoff_flags(nine.count, nine.pointers.data()).passes, 9);
}

TEST(BenchConfig, TheSpinIsReadFromTheEnvironmentAndABadOneRefused) {
  arguments plain({"handoff_bench"});
  {
    const test::scoped_environment unset("HANDOFF_SPIN", nullptr);
    EXPECT_EQ(parse_handoff_flags(plain.count, plain.pointers.data()).spin,
              transport::spin_turn::yield);
  }
  {
    const test::scoped_environment pause("HANDOFF_SPIN", "pause");
    EXPECT_EQ(parse_handoff_flags(plain.count, plain.pointers.data()).spin,
              transport::spin_turn::pause);
  }
  const test::scoped_environment wrong("HANDOFF_SPIN", "busy");
  EXPECT_THROW(parse_handoff_flags(plain.count, plain.pointers.data()), std::invalid_argument);
}

TEST(BenchConfig, TheSpinLengthIsReadFromTheEnvironmentAndABadOneRefused) {
  arguments plain({"handoff_bench"});
  {
    const test::scoped_environment unset("HANDOFF_SPIN_US", nullptr);
    EXPECT_EQ(parse_handoff_flags(plain.count, plain.pointers.data()).spin_length,
              std::chrono::microseconds(400));
  }
  {
    const test::scoped_environment shorter("HANDOFF_SPIN_US", "50");
    EXPECT_EQ(parse_handoff_flags(plain.count, plain.pointers.data()).spin_length,
              std::chrono::microseconds(50));
  }
  const test::scoped_environment wrong("HANDOFF_SPIN_US", "-5");
  EXPECT_THROW(parse_handoff_flags(plain.count, plain.pointers.data()), std::invalid_argument);
}

TEST(BenchConfig, BadValuesAreClearErrors) {
  for (const char* bad : {"--handoff-min-time=fast",
                          "--handoff-min-time=nan",
                          "--handoff-min-time=inf",
                          "--handoff-max-elements=-3",
                          "--handoff-max-elements=0",
                          "--handoff-max-elements=18446744073709551615",
                          "--handoff-shuffle-families=0",
                          "--handoff-shuffle-families=x",
                          "--handoff-unknown",
                          "--handoff-profile=fast",
                          "--handoff-max-noise=0",
                          "--handoff-timeout=-1",
                          "--handoff-min-samples=0",
                          "--handoff-plant-slowdown=5",
                          "--handoff-plant-slowdown=five:^x",
                          "--handoff-plant-slowdown=5:(",
                          "--handoff-ceilings-from=",
                          "--benchmark_min_time=2",
                          "--handoff-passes=0",
                          "--handoff-passes=1001",
                          "--handoff-passes=2.5"}) {
    arguments args({"handoff_bench", bad});
    EXPECT_THROW(parse_handoff_flags(args.count, args.pointers.data()), std::invalid_argument)
        << bad;
  }
}

TEST(BenchConfig, TwoProfilesThatDisagreeAreRefusedInOneLine) {
  arguments both({"handoff_bench", "--handoff-smoke", "--handoff-profile=full"});
  try {
    parse_handoff_flags(both.count, both.pointers.data());
    FAIL() << "--handoff-smoke with --handoff-profile=full was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_STREQ(error.what(),
                 "handoff_bench: --handoff-smoke and --handoff-profile=full ask for two "
                 "profiles; give one");
  }
  arguments agreeing({"handoff_bench", "--handoff-profile=smoke", "--handoff-smoke"});
  EXPECT_TRUE(parse_handoff_flags(agreeing.count, agreeing.pointers.data()).smoke);
}

TEST(BenchConfig, TheProfileSetsTheSamplingAndExplicitFlagsWinInAnyOrder) {
  arguments plain({"handoff_bench"});
  const auto standard = parse_handoff_flags(plain.count, plain.pointers.data());
  EXPECT_EQ(standard.profile, bench_profile::standard);
  arguments full({"handoff_bench", "--handoff-timeout=7", "--handoff-profile=full"});
  const auto config = parse_handoff_flags(full.count, full.pointers.data());
  EXPECT_EQ(config.profile, bench_profile::full);
  EXPECT_DOUBLE_EQ(config.sampling.timeout_seconds, 7.0);
  EXPECT_GT(config.sampling.min_samples, standard.sampling.min_samples);
  EXPECT_LT(config.sampling.max_noise, standard.sampling.max_noise);
}

TEST(BenchConfig, ListingAsAMachineOfOtherGpusTakesACount) {
  arguments args({"handoff_bench", "--handoff-list-as-gpus=4"});
  EXPECT_EQ(parse_handoff_flags(args.count, args.pointers.data()).list_as_gpus, 4);
  for (const char* bad :
       {"--handoff-list-as-gpus=0", "--handoff-list-as-gpus=two", "--handoff-list-as-gpus=65"}) {
    arguments refused({"handoff_bench", bad});
    EXPECT_THROW(parse_handoff_flags(refused.count, refused.pointers.data()), std::invalid_argument)
        << bad;
  }
}

TEST(BenchConfig, SmokeIsAProfileWithFewSamples) {
  arguments args({"handoff_bench", "--handoff-smoke", "--handoff-max-noise=2"});
  const auto config = parse_handoff_flags(args.count, args.pointers.data());
  EXPECT_TRUE(config.smoke);
  EXPECT_EQ(config.profile, bench_profile::smoke);
  EXPECT_LE(config.sampling.timeout_seconds, 0.1);
  EXPECT_DOUBLE_EQ(config.sampling.max_noise, 0.02);
}

TEST(BenchConfig, APlantedSlowdownIsParsedAndDescribedAsGiven) {
  arguments args({"handoff_bench", "--handoff-plant-slowdown=5:^elementwise/(cpu|gpu)_"});
  const auto config = parse_handoff_flags(args.count, args.pointers.data());
  EXPECT_TRUE(config.plant.active());
  EXPECT_DOUBLE_EQ(config.plant.fraction, 0.05);
  EXPECT_EQ(config.plant.rows_regex, "^elementwise/(cpu|gpu)_");
  EXPECT_EQ(config.plant.describe(), "5:^elementwise/(cpu|gpu)_");
  arguments off({"handoff_bench"});
  EXPECT_FALSE(parse_handoff_flags(off.count, off.pointers.data()).plant.active());
}

TEST(BenchConfig, AnElementCapBeyondHostMemoryIsAClearError) {
  constexpr double gib = 1024.0 * 1024.0 * 1024.0;
  EXPECT_NO_THROW(check_host_memory_for(std::uint64_t{1} << 28, 24 * gib));
  try {
    check_host_memory_for(std::uint64_t{1} << 32, 24 * gib);  // four 16 GiB arrays
    ADD_FAILURE() << "2^32 elements accepted on 24 GiB";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("about 64.0 GiB of host memory"), std::string::npos)
        << error.what();
  }
  EXPECT_GT(host_memory_bytes(), 0.0);
}

TEST(BenchConfig, AnAlternatingPlantNeedsAPlantAndPasses) {
  arguments good({"handoff_bench", "--handoff-plant-slowdown=10:^x", "--handoff-passes=4",
                  "--handoff-plant-alternate"});
  const auto config = parse_handoff_flags(good.count, good.pointers.data());
  EXPECT_EQ(config.plant.alternation, plant_alternation::passes);
  EXPECT_EQ(config.plant.describe(), "10:^x (even passes)");
  arguments no_plant({"handoff_bench", "--handoff-passes=4", "--handoff-plant-alternate"});
  EXPECT_THROW(parse_handoff_flags(no_plant.count, no_plant.pointers.data()),
               std::invalid_argument);
  arguments one_pass(
      {"handoff_bench", "--handoff-plant-slowdown=10:^x", "--handoff-plant-alternate=passes"});
  EXPECT_THROW(parse_handoff_flags(one_pass.count, one_pass.pointers.data()),
               std::invalid_argument);
}

TEST(BenchConfig, PlantedSamplesAlternateInASinglePassToo) {
  arguments samples(
      {"handoff_bench", "--handoff-plant-slowdown=5:^x", "--handoff-plant-alternate=samples"});
  const auto config = parse_handoff_flags(samples.count, samples.pointers.data());
  EXPECT_EQ(config.plant.alternation, plant_alternation::samples);
  EXPECT_EQ(config.plant.describe(), "5:^x (every second sample)");
  arguments unplanted({"handoff_bench", "--handoff-plant-alternate=samples"});
  EXPECT_THROW(parse_handoff_flags(unplanted.count, unplanted.pointers.data()),
               std::invalid_argument);
  arguments unknown(
      {"handoff_bench", "--handoff-plant-slowdown=5:^x", "--handoff-plant-alternate=rows"});
  EXPECT_THROW(parse_handoff_flags(unknown.count, unknown.pointers.data()), std::invalid_argument);
}

TEST(BenchConfig, TheHelpNamesEveryFlagTheParserTakes) {
  const std::string help = handoff_flags_help();
  for (const char* flag :
       {"--handoff-profile=", "--handoff-smoke", "--handoff-max-noise=", "--handoff-min-samples=",
        "--handoff-min-time=", "--handoff-timeout=", "--handoff-max-elements=",
        "--handoff-shuffle-families=", "--handoff-ceilings-from=", "--handoff-plant-slowdown=",
        "--handoff-passes=", "--handoff-plant-alternate", "--handoff-list-families",
        "--handoff-plant-wrong-result", "--handoff-axis="}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
  }
}

TEST(BenchConfig, ChosenAxisValuesAreCountsOrPowersOfTwoSortedOnce) {
  arguments plain(
      {"handoff_bench", "--handoff-axis=bytes:2^20,4096,1048576", "--handoff-axis=elements:1000"});
  const auto config = parse_handoff_flags(plain.count, plain.pointers.data());
  EXPECT_EQ(config.axes.at("bytes"), (std::vector<std::uint64_t>{4096, 1048576}));
  EXPECT_EQ(config.axes.at("elements"), (std::vector<std::uint64_t>{1000}));
  EXPECT_EQ(plain.count, 1);
}

TEST(BenchConfig, BadAxisChoicesAreClearErrorsNamingTheFlag) {
  const std::pair<const char*, const char*> refused[] = {
      {"--handoff-axis=colour:3", "axes that can be set"},
      {"--handoff-axis=bytes", "axes that can be set"},
      {"--handoff-axis=elements:", "is not a count"},
      {"--handoff-axis=elements:0", "is not a count"},
      {"--handoff-axis=elements:1,,2", "is not a count"},
      {"--handoff-axis=elements:2^63", "is not a count"},
      {"--handoff-axis=bytes:6", "not a whole number of floats"},
      {"--handoff-axis=elements:2^29", "over --handoff-max-elements"},
      {"--handoff-axis=n:2^15", "n x n is over"},
  };
  for (const auto& [flag, words] : refused) {
    SCOPED_TRACE(flag);
    arguments args({"handoff_bench", flag});
    try {
      parse_handoff_flags(args.count, args.pointers.data());
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find(words), std::string::npos) << error.what();
      EXPECT_NE(std::string(error.what()).find("--handoff-axis="), std::string::npos);
    }
  }
  // The largest element cap (which needs 64 GiB of host memory) admits n = 2^16 as n x n, but
  // affine's own cap still refuses it, before anything runs.
  EXPECT_NO_THROW(check_axis_choices({{"n", {32768}}}, max_element_count));
  try {
    check_axis_choices({{"n", {32768, 65536}}}, max_element_count);
    ADD_FAILURE() << "n = 2^16 accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("--handoff-axis=n:65536: over affine's cap of 32768"),
              std::string::npos)
        << error.what();
  }
  arguments twice({"handoff_bench", "--handoff-axis=n:64", "--handoff-axis=n:128"});
  EXPECT_THROW(parse_handoff_flags(twice.count, twice.pointers.data()), std::invalid_argument);
}

TEST(BenchConfig, AChosenAxisNoFamilyAskedForIsReported) {
  arguments args({"handoff_bench", "--handoff-axis=unknowns:1024"});
  const auto config = parse_handoff_flags(args.count, args.pointers.data());
  const family_plan transfers{
      .name = "tensor_transfer/host", .runs = true, .skip_reason = {}, .settable_axes = {"bytes"}};
  family_plan iterative{.name = "iterative/gpu",
                        .runs = false,
                        .skip_reason = "no GPU found",
                        .settable_axes = {"unknowns"}};
  EXPECT_EQ(chosen_axes_nobody_read(config, {transfers}), std::vector<std::string>{"unknowns"});
  // A family this machine skips reads nothing.
  EXPECT_EQ(chosen_axes_nobody_read(config, {transfers, iterative}),
            std::vector<std::string>{"unknowns"});
  EXPECT_EQ(patterns::chosen_values(sweep_settings_of({config, {}}), "unknowns"),
            (std::vector<std::size_t>{1024}));
  iterative.runs = true;
  EXPECT_TRUE(chosen_axes_nobody_read(config, {transfers, iterative}).empty());
}

}  // namespace
}  // namespace handoff::bench
