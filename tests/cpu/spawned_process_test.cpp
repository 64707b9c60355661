#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>

#include "handoff/patterns/fd_io.hpp"
#include "handoff/patterns/process_errors.hpp"
#include "handoff/patterns/spawned_process.hpp"

namespace handoff::patterns {
namespace {

using namespace std::chrono_literals;

bool process_exists(pid_t pid) {
  return ::kill(pid, 0) == 0;
}

TEST(SpawnedProcess, ReportsExitCode) {
  auto child = spawned_process::start("exit3", {"/bin/sh", "-c", "exit 3"});
  const auto status = child.wait_for(10s);
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 3);
  EXPECT_FALSE(status.success());
  EXPECT_EQ(status.describe(), "exited with code 3");
}

TEST(SpawnedProcess, ReportsDeathBySignal) {
  auto child = spawned_process::start("self_kill", {"/bin/sh", "-c", "kill -9 $$"});
  const auto status = child.wait_for(10s);
  EXPECT_FALSE(status.exited);
  EXPECT_EQ(status.code, SIGKILL);
  EXPECT_NE(status.describe().find("signal 9"), std::string::npos) << status.describe();
}

TEST(SpawnedProcess, DeadlineKillsAndNamesTheWorker) {
  auto child = spawned_process::start("sleeper", {"/bin/sleep", "30"});
  const pid_t pid = child.pid();
  const auto start = std::chrono::steady_clock::now();
  try {
    child.wait_for(200ms);
    FAIL() << "no deadline_exceeded";
  } catch (const deadline_exceeded& error) {
    EXPECT_NE(std::string(error.what()).find("sleeper"), std::string::npos) << error.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_FALSE(process_exists(pid)) << "the timed-out worker must be reaped";
}

TEST(SpawnedProcess, DestructorLeavesNoProcessBehind) {
  pid_t pid = -1;
  {
    auto child = spawned_process::start("orphan", {"/bin/sleep", "30"});
    pid = child.pid();
    ASSERT_TRUE(process_exists(pid));
  }
  EXPECT_FALSE(process_exists(pid));
}

TEST(SpawnedProcess, MissingProgramIsATypedError) {
  EXPECT_THROW(
      {
        auto child = spawned_process::start("ghost", {"/nonexistent/handoff-program"});
        // posix_spawn may report exec failure as exit 127 instead of an error.
        const auto status = child.wait_for(10s);
        if (!status.success()) throw spawn_failed(status.describe());
      },
      spawn_failed);
}

TEST(FdIo, EndOfFileFromADeadWriterIsChannelClosed) {
  auto pipe = make_cloexec_pipe();
  auto child = spawned_process::start("writer", {"/bin/sh", "-c", "printf abc"},
                                      {.stdout_fd = pipe.write_end});
  close_fd(pipe.write_end);
  std::byte buffer[8];
  EXPECT_THROW(read_exact(pipe.read_end, buffer, deadline_clock::now() + 10s, "writer"),
               channel_closed);
  close_fd(pipe.read_end);
  EXPECT_TRUE(child.wait_for(10s).success());
}

TEST(FdIo, SilentPeerHitsTheDeadline) {
  auto pipe = make_cloexec_pipe();
  std::byte buffer[1];
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(read_exact(pipe.read_end, buffer, deadline_clock::now() + 100ms, "nobody"),
               deadline_exceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  close_fd(pipe.read_end);
  close_fd(pipe.write_end);
}

TEST(FdIo, WritingToAVanishedReaderIsChannelClosed) {
  ::signal(SIGPIPE, SIG_IGN);
  auto pipe = make_cloexec_pipe();
  close_fd(pipe.read_end);
  const std::byte byte{1};
  EXPECT_THROW(write_all(pipe.write_end, std::span(&byte, 1), deadline_clock::now() + 1s, "gone"),
               channel_closed);
  close_fd(pipe.write_end);
}

}  // namespace
}  // namespace handoff::patterns
