// The pipe-sink worker of handoff_bench, driven as the pipe ceiling drives it: its answers, its
// input checks, and what the sender sees when it dies.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>
#include <xxhash.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::patterns {

using transport::deadline_clock;
using transport::spawned_process;

namespace {

using namespace std::chrono_literals;

class PipeSink : public ::testing::Test {
 protected:
  void SetUp() override {
    ::signal(SIGPIPE, SIG_IGN);
    auto to_sink = transport::make_cloexec_pipe();
    auto from_sink = transport::make_cloexec_pipe();
    sink_.emplace(spawned_process::start(
        "pipe_sink", {HANDOFF_BENCH_PATH, "--handoff-worker=pipe_sink"},
        {.stdin_fd = to_sink.read_end.get(), .stdout_fd = from_sink.write_end.get()}));
    to_sink_ = std::move(to_sink.write_end);
    from_sink_ = std::move(from_sink.read_end);
  }

  void send(std::uint64_t length, std::span<const std::byte> payload) {
    transport::write_all(to_sink_.get(), std::as_bytes(std::span(&length, 1)),
                         deadline_clock::now() + 10s, "sink");
    transport::write_all(to_sink_.get(), payload, deadline_clock::now() + 10s, "sink");
  }

  std::pair<std::uint64_t, std::uint64_t> receive_reply() {
    std::uint64_t reply[2] = {};
    transport::read_exact(from_sink_.get(), std::as_writable_bytes(std::span(reply)),
                          deadline_clock::now() + 10s, "sink");
    return {reply[0], reply[1]};
  }

  std::optional<spawned_process> sink_;
  transport::unique_fd to_sink_;
  transport::unique_fd from_sink_;
};

std::vector<std::byte> patterned(std::size_t bytes) {
  std::vector<std::byte> data(bytes);
  for (std::size_t i = 0; i < bytes; ++i)
    data[i] = std::byte(static_cast<unsigned char>(i * 131 + 7));
  return data;
}

TEST_F(PipeSink, AnswersEachMessageWithItsLengthAndHash) {
  // Empty, one byte, one that spans several of the sink's 1 MiB receive chunks, and one that laps
  // its ring twice, which a machine of four or more hardware threads hashes on a thread of its own.
  for (const std::size_t bytes :
       {std::size_t{0}, std::size_t{1}, std::size_t{3} << 20 | 5, std::size_t{9} << 20 | 5}) {
    const auto message = patterned(bytes);
    send(bytes, message);
    const auto [length, hash] = receive_reply();
    EXPECT_EQ(length, bytes);
    EXPECT_EQ(hash, XXH3_64bits(message.data(), message.size())) << bytes << " bytes";
  }
  to_sink_.reset();
  EXPECT_TRUE(sink_->wait_for(10s).success()) << "closing its input must end the sink cleanly";
}

TEST_F(PipeSink, ATamperedMessageHashesDifferently) {
  auto message = patterned(4096);
  const auto expected = XXH3_64bits(message.data(), message.size());
  message[1000] ^= std::byte{1};
  send(message.size(), message);
  EXPECT_NE(receive_reply().second, expected);
}

TEST_F(PipeSink, AnImpossibleLengthIsRefusedNotAllocated) {
  send(std::uint64_t{1} << 62, {});
  const auto status = sink_->wait_for(10s);
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 3) << status.describe();
}

TEST_F(PipeSink, ATruncatedMessageEndsTheSinkWithAnError) {
  const auto message = patterned(1000);
  send(5000, message);
  to_sink_.reset();
  const auto status = sink_->wait_for(10s);
  EXPECT_TRUE(status.exited) << status.describe();
  EXPECT_EQ(status.code, 4) << status.describe();
}

// Found by fuzz/pipe_sink_fuzzer.cpp: a stream that ended inside a length prefix was taken for the
// sender's goodbye, and the sink exited 0 as if every message had arrived whole.
TEST_F(PipeSink, AStreamThatEndsInsideALengthEndsTheSinkWithAnError) {
  const std::byte part_of_a_length[3] = {std::byte{10}, std::byte{0}, std::byte{0}};
  transport::write_all(to_sink_.get(), part_of_a_length, deadline_clock::now() + 10s, "sink");
  to_sink_.reset();
  const auto status = sink_->wait_for(10s);
  EXPECT_TRUE(status.exited) << status.describe();
  EXPECT_EQ(status.code, 4) << status.describe();
}

TEST_F(PipeSink, ASenderWhoseSinkDiedGetsChannelClosedNotAHang) {
  sink_->kill_and_reap();
  const auto message = patterned(16 << 20);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_THROW(send(message.size(), message), transport::channel_closed);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST(WorkerRoles, AnUnknownRoleIsRefused) {
  auto worker = spawned_process::start("bad_role", {HANDOFF_BENCH_PATH, "--handoff-worker=nope"});
  const auto status = worker.wait_for(10s);
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, 2);
}

TEST(WorkerRoles, AWorkerWhoseParentIsGoneExitsAtOnce) {
  // No process has this pid (Linux's largest is 4194304): to the worker, the process that
  // started it is gone.
  auto worker = spawned_process::start(
      "orphan", {HANDOFF_BENCH_PATH, "--handoff-worker=pipe_sink", "--handoff-parent=999999999"});
  const auto status = worker.wait_for(10s);
  EXPECT_TRUE(status.exited);
  EXPECT_EQ(status.code, transport::worker_orphaned_exit_code);
}

TEST(WorkerRoles, AWorkerStartedByWorkerCommandKnowsItsParent) {
  auto command = transport::worker_command("nope");
  command[0] = HANDOFF_BENCH_PATH;
  ASSERT_EQ(command.size(), 3u);
  EXPECT_EQ(command[2], "--handoff-parent=" + std::to_string(::getpid()));
  auto worker = spawned_process::start("bad_role", command);
  EXPECT_EQ(worker.wait_for(10s).code, 2);  // past the parent check, refused as unknown
}

}  // namespace
}  // namespace handoff::patterns
