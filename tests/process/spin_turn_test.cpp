// HANDOFF_SPIN chooses how each turn of a spin offers the core (fd_io.hpp).

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "handoff/transport/fd_io.hpp"
#include "support/scoped_environment.hpp"

namespace handoff::transport {
namespace {

TEST(SpinTurn, YieldsUnlessPauseIsAskedFor) {
  {
    const test::scoped_environment unset("HANDOFF_SPIN", nullptr);
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::yield);
  }
  {
    const test::scoped_environment empty("HANDOFF_SPIN", "");
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::yield);
  }
  {
    const test::scoped_environment yield("HANDOFF_SPIN", "yield");
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::yield);
  }
  const test::scoped_environment pause("HANDOFF_SPIN", "pause");
  EXPECT_EQ(spin_turn_from_environment(), spin_turn::pause);
}

TEST(SpinTurn, AnythingElseIsRefusedByName) {
  const test::scoped_environment wrong("HANDOFF_SPIN", "Pause");
  try {
    (void)spin_turn_from_environment();
    FAIL() << "HANDOFF_SPIN=Pause was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "HANDOFF_SPIN must be yield or pause, not 'Pause'");
  }
}

}  // namespace
}  // namespace handoff::transport
