// HANDOFF_SPIN chooses how each turn of a spin offers the core (fd_io.hpp).

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "handoff/transport/fd_io.hpp"
#include "support/scoped_environment.hpp"

namespace handoff::transport {
namespace {

TEST(SpinTurn, YieldsUnlessAnotherTurnIsAskedFor) {
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
  {
    const test::scoped_environment pause("HANDOFF_SPIN", "pause");
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::pause);
  }
  const test::scoped_environment peer("HANDOFF_SPIN", "peer");
  EXPECT_EQ(spin_turn_from_environment(), spin_turn::peer);
}

TEST(SpinTurn, EachTurnIsNamedAsItIsAskedFor) {
  for (const auto turn : {spin_turn::yield, spin_turn::pause, spin_turn::peer}) {
    const test::scoped_environment asked("HANDOFF_SPIN", name_of(turn));
    EXPECT_EQ(spin_turn_from_environment(), turn) << name_of(turn);
  }
}

TEST(SpinTurn, AnythingElseIsRefusedByName) {
  const test::scoped_environment wrong("HANDOFF_SPIN", "Pause");
  try {
    (void)spin_turn_from_environment();
    FAIL() << "HANDOFF_SPIN=Pause was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "HANDOFF_SPIN must be yield, pause or peer, not 'Pause'");
  }
}

}  // namespace
}  // namespace handoff::transport
