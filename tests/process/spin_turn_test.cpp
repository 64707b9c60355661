// HANDOFF_SPIN chooses how each turn of a spin offers the core (fd_io.hpp).

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string>

#include "handoff/transport/fd_io.hpp"

namespace handoff::transport {
namespace {

// Sets HANDOFF_SPIN for a scope, or unsets it where value is null.
class SpinSetting {
 public:
  explicit SpinSetting(const char* value) {
    if (const char* before = std::getenv("HANDOFF_SPIN")) before_ = before;
    if (value == nullptr) {
      EXPECT_EQ(unsetenv("HANDOFF_SPIN"), 0);
    } else {
      EXPECT_EQ(setenv("HANDOFF_SPIN", value, 1), 0);
    }
  }
  ~SpinSetting() {
    if (before_) {
      setenv("HANDOFF_SPIN", before_->c_str(), 1);
    } else {
      unsetenv("HANDOFF_SPIN");
    }
  }
  SpinSetting(const SpinSetting&) = delete;
  SpinSetting& operator=(const SpinSetting&) = delete;

 private:
  std::optional<std::string> before_;
};

TEST(SpinTurn, YieldsUnlessPauseIsAskedFor) {
  {
    const SpinSetting unset(nullptr);
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::yield);
  }
  {
    const SpinSetting empty("");
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::yield);
  }
  {
    const SpinSetting yield("yield");
    EXPECT_EQ(spin_turn_from_environment(), spin_turn::yield);
  }
  const SpinSetting pause("pause");
  EXPECT_EQ(spin_turn_from_environment(), spin_turn::pause);
}

TEST(SpinTurn, AnythingElseIsRefusedByName) {
  const SpinSetting wrong("Pause");
  try {
    (void)spin_turn_from_environment();
    FAIL() << "HANDOFF_SPIN=Pause was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()), "HANDOFF_SPIN must be yield or pause, not 'Pause'");
  }
}

}  // namespace
}  // namespace handoff::transport
