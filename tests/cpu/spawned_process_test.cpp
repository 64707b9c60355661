#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <fcntl.h>

#include <chrono>
#include <sstream>
#include <string>
#include <vector>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/spawned_process.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns {

using transport::channel_closed;
using transport::deadline_clock;
using transport::deadline_exceeded;
using transport::make_cloexec_pipe;
using transport::read_exact;
using transport::spawned_process;

namespace {

using namespace std::chrono_literals;

using handoff::leak_checks::process_exists;

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
  try {
    spawned_process::start("ghost", {"/nonexistent/handoff-program"});
    FAIL() << "starting a missing program succeeded";
  } catch (const transport::spawn_failed& error) {
    EXPECT_NE(std::string(error.what()).find("ghost"), std::string::npos) << error.what();
  }
}

TEST(SpawnedProcess, ChildInheritsOnlyItsStandardStreams) {
  // Opened without O_CLOEXEC, as a library's ofstream would be.
  transport::unique_fd stray(::open("/dev/null", O_RDONLY));
  ASSERT_GE(stray.get(), 3);
  auto listing = make_cloexec_pipe();
  auto child = spawned_process::start("fd_lister", {"/bin/sh", "-c", "ls /proc/$$/fd"},
                                      {.stdout_fd = listing.write_end.get()});
  listing.write_end.reset();
  std::string names;
  std::byte next{};
  try {
    while (true) {
      read_exact(listing.read_end.get(), std::span(&next, 1), deadline_clock::now() + 10s, "ls");
      names.push_back(static_cast<char>(next));
    }
  } catch (const channel_closed&) {
  }
  EXPECT_TRUE(child.wait_for(10s).success());
  std::istringstream lines(names);
  for (std::string fd; lines >> fd;) {
    EXPECT_LE(std::stoi(fd), 2) << "the child inherited descriptor " << fd << ": " << names;
  }
}

TEST(FdIo, EndOfFileFromADeadWriterIsChannelClosed) {
  auto pipe = make_cloexec_pipe();
  auto child = spawned_process::start("writer", {"/bin/sh", "-c", "printf abc"},
                                      {.stdout_fd = pipe.write_end.get()});
  pipe.write_end.reset();
  std::byte buffer[8];
  EXPECT_THROW(read_exact(pipe.read_end.get(), buffer, deadline_clock::now() + 10s, "writer"),
               channel_closed);
  EXPECT_TRUE(child.wait_for(10s).success());
}

TEST(FdIo, SilentPeerHitsTheReadDeadline) {
  auto pipe = make_cloexec_pipe();
  std::byte buffer[1];
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(read_exact(pipe.read_end.get(), buffer, deadline_clock::now() + 100ms, "nobody"),
               deadline_exceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(FdIo, WritingLeavesTheCallersDescriptorBlockingAsItWas) {
  auto pipe = make_cloexec_pipe();
  const std::vector<std::byte> fits(1024);
  transport::write_all(pipe.write_end.get(), fits, deadline_clock::now() + 10s, "reader");
  EXPECT_EQ(::fcntl(pipe.write_end.get(), F_GETFL) & O_NONBLOCK, 0);
  const std::vector<std::byte> larger_than_the_pipe(4 << 20);
  EXPECT_THROW(transport::write_all(pipe.write_end.get(), larger_than_the_pipe,
                                    deadline_clock::now() + 100ms, "idle"),
               deadline_exceeded);
  EXPECT_EQ(::fcntl(pipe.write_end.get(), F_GETFL) & O_NONBLOCK, 0);
}

TEST(FdIo, AReaderThatNeverReadsHitsTheWriteDeadline) {
  auto pipe = make_cloexec_pipe();
  const std::vector<std::byte> larger_than_the_pipe(4 << 20);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(transport::write_all(pipe.write_end.get(), larger_than_the_pipe,
                                    deadline_clock::now() + 200ms, "idle"),
               deadline_exceeded);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(FdIo, WritingToAVanishedReaderIsChannelClosed) {
  ::signal(SIGPIPE, SIG_IGN);
  auto pipe = make_cloexec_pipe();
  pipe.read_end.reset();
  const std::byte byte{1};
  EXPECT_THROW(transport::write_all(pipe.write_end.get(), std::span(&byte, 1),
                                    deadline_clock::now() + 1s, "gone"),
               channel_closed);
}

TEST(UniqueFd, ClosesOnceAndMoves) {
  auto pipe = make_cloexec_pipe();
  const int raw = pipe.read_end.get();
  transport::unique_fd moved = std::move(pipe.read_end);
  EXPECT_EQ(moved.get(), raw);
  EXPECT_EQ(pipe.read_end.get(), -1);
  moved.reset();
  EXPECT_EQ(::fcntl(raw, F_GETFD), -1) << "the descriptor must be closed";
}

}  // namespace
}  // namespace handoff::patterns
