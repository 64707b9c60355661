// The planted slowdown's delay: on for the matching rows only, aimed at the asked fraction of a
// run, and kept within a factor of 2 of that aim however noisy its calibration batches are.

#include "harness/planted_delay.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "harness/bench_config.hpp"

namespace handoff::bench {
namespace {

planted_slowdown five_percent_on_planted_rows() {
  planted_slowdown plant;
  plant.fraction = 0.05;
  plant.rows_regex = "^planted/";
  return plant;
}

class PlantedDelay : public ::testing::Test {
 protected:
  planted_delay for_row(const std::string& name) const {
    return planted_delay::for_row(plant_, name, 1);
  }

 private:
  planted_slowdown plant_ = five_percent_on_planted_rows();
};

TEST_F(PlantedDelay, OnForTheMatchingRowsOnly) {
  EXPECT_TRUE(for_row("planted/row").active());
  EXPECT_DOUBLE_EQ(for_row("planted/row").fraction(), 0.05);
  EXPECT_FALSE(for_row("other/planted/row").active());
}

TEST_F(PlantedDelay, AimsAtTheFractionOfARun) {
  auto delay = for_row("planted/row");
  delay.aim_at(0.01);
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.0005);
  EXPECT_GE(delay.measured_busy_wait(), 0.0005);
}

TEST_F(PlantedDelay, CorrectionsStayWithinAFactorOfTwoOfTheAim) {
  auto delay = for_row("planted/row");
  delay.aim_at(0.01);
  delay.correct(0.0001);  // a calibration batch that read the delay as almost nothing
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.001);
  delay.correct(0.0001);
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.001);
  for (int step = 0; step < 3; ++step)
    delay.correct(0.5);  // batches that read it ten times too large
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.00025);
  delay.correct(0.05);  // read as asked: nothing changes
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.00025);
}

TEST_F(PlantedDelay, AFixedCostIsCorrectedForOnlyWhereItIsLargeAgainstTheDelay) {
  auto delay = for_row("planted/row");
  delay.aim_at(0.01);  // a delay of 500 us
  EXPECT_FALSE(delay.fixed_cost_matters(5e-6));
  EXPECT_FALSE(delay.fixed_cost_matters(25e-6));
  EXPECT_TRUE(delay.fixed_cost_matters(26e-6));
  EXPECT_TRUE(delay.fixed_cost_matters(std::numeric_limits<double>::infinity()));
  delay.aim_at(1e-4);  // a delay of 5 us: a launch is as long as the delay
  EXPECT_TRUE(delay.fixed_cost_matters(5e-6));
}

TEST_F(PlantedDelay, ANonPositiveReadingChangesNothing) {
  auto delay = for_row("planted/row");
  delay.aim_at(0.01);
  delay.correct(0.0);
  delay.correct(-0.2);
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.0005);
}

TEST_F(PlantedDelay, FollowsTheRowsSpeedKeepingItsCorrectedRatio) {
  auto delay = for_row("planted/row");
  delay.follow(0.02);  // not aimed yet: nothing to keep
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.0);
  delay.aim_at(0.01);
  delay.correct(0.025);  // realised half the aim: the delay doubles
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.001);
  delay.follow(0.02);  // the machine ran at half speed
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.002);
  delay.follow(0.005);
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.0005);
  delay.follow(0.0);
  EXPECT_DOUBLE_EQ(delay.delay_seconds(), 0.0005);
}

TEST(PlantedDelayAlternation, PassesPlantTheEvenPassesAndSamplesPlantEveryPass) {
  planted_slowdown plant = five_percent_on_planted_rows();
  plant.alternation = plant_alternation::passes;
  EXPECT_FALSE(planted_delay::for_row(plant, "planted/row", 1).active());
  EXPECT_TRUE(planted_delay::for_row(plant, "planted/row", 2).active());
  EXPECT_FALSE(planted_delay::for_row(plant, "planted/row", 3).active());
  plant.alternation = plant_alternation::samples;
  EXPECT_TRUE(planted_delay::for_row(plant, "planted/row", 1).active());
}

}  // namespace
}  // namespace handoff::bench
