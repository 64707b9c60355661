// HANDOFF_SPIN chooses how each turn of a spin offers the core, HANDOFF_SPIN_US how long the spin
// lasts (fd_io.hpp).

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>

#include <poll.h>
#include <unistd.h>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/scoped_environment.hpp"

namespace handoff::transport {
namespace {

using namespace std::chrono_literals;

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

TEST(SpinLength, FourHundredMicrosecondsUnlessAnotherLengthIsAskedFor) {
  {
    const test::scoped_environment unset("HANDOFF_SPIN_US", nullptr);
    EXPECT_EQ(spin_length_from_environment(), 400us);
  }
  {
    const test::scoped_environment empty("HANDOFF_SPIN_US", "");
    EXPECT_EQ(spin_length_from_environment(), 400us);
  }
  for (const auto& [asked, length] :
       {std::pair{"0", 0us}, std::pair{"50", 50us}, std::pair{"10000", 10'000us}}) {
    const test::scoped_environment set("HANDOFF_SPIN_US", asked);
    EXPECT_EQ(spin_length_from_environment(), length) << asked;
  }
}

TEST(SpinLength, AnythingButWholeMicrosecondsUpToTheLongestSpinIsRefused) {
  for (const char* wrong : {"-1", "10001", "1000000", "50us", "4e2", " 50", "50 ", "0x40", "fast",
                            "99999999999999999999"}) {
    const test::scoped_environment asked("HANDOFF_SPIN_US", wrong);
    EXPECT_THROW((void)spin_length_from_environment(), std::invalid_argument) << wrong;
  }
  const test::scoped_environment wrong("HANDOFF_SPIN_US", "50us");
  try {
    (void)spin_length_from_environment();
    FAIL() << "HANDOFF_SPIN_US=50us was accepted";
  } catch (const std::invalid_argument& error) {
    EXPECT_EQ(std::string(error.what()),
              "HANDOFF_SPIN_US must be a whole number of microseconds from 0 to 10000, not "
              "'50us'");
  }
}

// Replies to one request with the spin length this worker process uses.
int spin_length_worker(std::span<const std::string>) {
  auto channel = coordinator_connection();
  const auto deadline = deadline_clock::now() + 10s;
  channel.receive_record<std::uint32_t>(deadline);
  channel.send_record(static_cast<std::uint32_t>(spin_length().count()), deadline);
  return 0;
}
HANDOFF_WORKER_ROLE("spin_length", spin_length_worker);

std::uint32_t a_workers_spin_length_in_microseconds() {
  worker_pool pool("spinner", 1, {.role = "spin_length"});
  const auto deadline = deadline_clock::now() + 10s;
  pool.channel(0).send_record(std::uint32_t{0}, deadline);
  const auto length = pool.channel(0).receive_record<std::uint32_t>(deadline);
  pool.shutdown_expecting_success(10s);
  return length;
}

// The length is read once per process, so only a fresh process shows that the setting reaches it.
TEST(SpinLength, AWorkerSpinsAsLongAsItsEnvironmentAsks) {
  {
    const test::scoped_environment unset("HANDOFF_SPIN_US", nullptr);
    EXPECT_EQ(a_workers_spin_length_in_microseconds(), 400U);
  }
  const test::scoped_environment shorter("HANDOFF_SPIN_US", "50");
  EXPECT_EQ(a_workers_spin_length_in_microseconds(), 50U);
}

// Replies with how long, in microseconds, it spun on a pipe that nothing is written to.
int spin_on_a_silent_pipe_worker(std::span<const std::string>) {
  auto channel = coordinator_connection();
  int ends[2];
  if (::pipe(ends) != 0) return 1;
  const auto start = deadline_clock::now();
  const bool ready = ready_within_spin(ends[0], POLLIN, start + 10s);
  const auto spun =
      std::chrono::duration_cast<std::chrono::microseconds>(deadline_clock::now() - start);
  ::close(ends[0]);
  ::close(ends[1]);
  const auto deadline = deadline_clock::now() + 10s;
  channel.receive_record<std::uint32_t>(deadline);
  channel.send_record(static_cast<std::uint32_t>(ready ? 0 : spun.count()), deadline);
  return 0;
}
HANDOFF_WORKER_ROLE("spin_on_a_silent_pipe", spin_on_a_silent_pipe_worker);

// A lower bound only: the spin ends at its length or later, never sooner, however busy the machine.
TEST(SpinLength, AReaderSpinsAtLeastTheLengthAskedForBeforeItWouldSleep) {
  const test::scoped_environment longer("HANDOFF_SPIN_US", "10000");
  worker_pool pool("spinner", 1, {.role = "spin_on_a_silent_pipe"});
  const auto deadline = deadline_clock::now() + 10s;
  pool.channel(0).send_record(std::uint32_t{0}, deadline);
  EXPECT_GE(pool.channel(0).receive_record<std::uint32_t>(deadline), 10'000U);
  pool.shutdown_expecting_success(10s);
}

}  // namespace
}  // namespace handoff::transport
