#include "handoff/transport/channels/connection.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::patterns {

using transport::channel_closed;
using transport::connection;
using transport::deadline_clock;
using transport::worker_pool;

namespace {

using namespace std::chrono_literals;

constexpr std::uint64_t echo_cap = 64 << 20;

deadline_clock::time_point soon() {
  return deadline_clock::now() + 10s;
}

// Sends every message back until the coordinator closes the channel.
int echo_worker(std::span<const std::string>) {
  auto channel = transport::coordinator_connection();
  while (true) {
    std::vector<std::byte> message;
    try {
      message = channel.receive(deadline_clock::now() + 60s, echo_cap);
    } catch (const channel_closed&) {
      return 0;
    }
    channel.send(message, soon());
  }
}
HANDOFF_WORKER_ROLE("connection_echo", echo_worker);

// Reads the file behind a descriptor it receives and sends the contents back.
int descriptor_reader_worker(std::span<const std::string>) {
  auto channel = transport::coordinator_connection();
  const transport::unique_fd received = channel.receive_fd(soon());
  std::vector<std::byte> contents(4096);
  const ssize_t got = ::pread(received.get(), contents.data(), contents.size(), 0);
  contents.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  channel.send(contents, soon());
  return 0;
}
HANDOFF_WORKER_ROLE("connection_descriptor_reader", descriptor_reader_worker);

std::vector<std::byte> patterned(std::size_t bytes) {
  std::vector<std::byte> message(bytes);
  for (std::size_t index = 0; index < bytes; ++index) {
    message[index] = static_cast<std::byte>((index * 131 + 7) & 0xFF);
  }
  return message;
}

TEST(Connection, MessagesOfEverySizeComeBackIntact) {
  worker_pool pool("echo", 1, {.role = "connection_echo"});
  for (const std::size_t bytes : {0UL, 1UL, 4095UL, 1UL << 20, (1UL << 24) + 3}) {
    const auto message = patterned(bytes);
    pool.channel(0).send(message, soon());
    EXPECT_EQ(pool.channel(0).receive(soon(), echo_cap), message) << bytes << " bytes";
  }
  pool.shutdown_expecting_success(10s);
}

TEST(Connection, PartsArriveAsOneMessage) {
  worker_pool pool("echo", 1, {.role = "connection_echo"});
  const auto header = patterned(10);
  const auto payload = patterned(1000);
  pool.channel(0).send_parts({header, payload}, soon());
  const auto echoed = pool.channel(0).receive(soon(), echo_cap);
  ASSERT_EQ(echoed.size(), header.size() + payload.size());
  EXPECT_TRUE(std::equal(header.begin(), header.end(), echoed.begin()));
  EXPECT_TRUE(std::equal(payload.begin(), payload.end(), echoed.begin() + header.size()));
}

TEST(Connection, StreamingReceiveLandsPiecesInPlace) {
  auto [left, right] = connection::make_pair("right", "left");
  const auto message = patterned(300);
  left.send(message, soon());
  std::vector<std::byte> received(300);
  ASSERT_EQ(right.receive_length(soon(), 300), 300U);
  right.receive_body(std::span(received).first(100), soon());
  right.receive_body(std::span(received).subspan(100), soon());
  EXPECT_EQ(received, message);
}

TEST(Connection, AStreamedMessageIsMadePieceByPieceAndArrivesWhole) {
  worker_pool pool("echo", 1, {.role = "connection_echo"});
  const auto message = patterned((3 << 20) + 5);  // more than the socket holds at once
  std::size_t sent = 0;
  std::vector<std::size_t> pieces;
  pool.channel(0).send_streamed(
      message.size(),
      [&] {
        // Uneven pieces, each made only when the previous one has gone.
        const std::size_t size = std::min<std::size_t>(message.size() - sent, 65536 + sent % 977);
        pieces.push_back(size);
        const auto piece = std::span(message).subspan(sent, size);
        sent += size;
        return piece;
      },
      soon());
  EXPECT_GT(pieces.size(), 40U);
  EXPECT_EQ(pool.channel(0).receive(soon(), echo_cap), message);
  pool.shutdown_expecting_success(10s);
}

TEST(Connection, StreamedPiecesThatDoNotAddUpAreAnError) {
  auto [left, right] = connection::make_pair("right", "left");
  const auto message = patterned(100);
  try {
    left.send_streamed(
        99, [&] { return std::span<const std::byte>(message); }, soon());
    ADD_FAILURE() << "a 100-byte piece went into a 99-byte message";
  } catch (const transport::process_error& error) {
    EXPECT_NE(std::string(error.what()).find("a piece of 100 bytes after 0 of a 99-byte message"),
              std::string::npos)
        << error.what();
  }
  EXPECT_THROW(left.send_streamed(
                   10, [] { return std::span<const std::byte>{}; }, soon()),
               transport::process_error);
}

TEST(Connection, RecordsOfTheWrongSizeAreRejected) {
  auto [left, right] = connection::make_pair("right", "left");
  left.send_record(std::uint32_t{7}, soon());
  EXPECT_THROW(right.receive_record<std::uint64_t>(soon()), transport::process_error);
  left.send_record(std::uint64_t{42}, soon());
  auto [left2, right2] = connection::make_pair("right", "left");
  left2.send_record(std::uint64_t{42}, soon());
  EXPECT_EQ(right2.receive_record<std::uint64_t>(soon()), 42U);
}

TEST(Connection, AMessageOverTheCapIsATypedError) {
  auto [left, right] = connection::make_pair("right", "left");
  left.send(patterned(1025), soon());
  try {
    right.receive(soon(), 1024);
    FAIL() << "no message_too_large";
  } catch (const transport::message_too_large& error) {
    EXPECT_NE(std::string(error.what()).find("1025"), std::string::npos) << error.what();
  }
}

TEST(Connection, ARecordOverItsSizeIsATypedError) {
  auto [left, right] = connection::make_pair("right", "left");
  left.send(patterned(9), soon());
  EXPECT_THROW(right.receive_record<std::uint64_t>(soon()), transport::message_too_large);
}

// A record read takes the length and the body in one read where both are there; a body that comes
// later, a piece at a time, must still land whole.
TEST(Connection, ARecordWhoseBodyArrivesLateIsReceivedWhole) {
  auto [left, right] = connection::make_pair("right", "left");
  const std::uint64_t length = sizeof(std::uint64_t);
  const std::uint64_t value = 0x0123456789abcdefULL;
  const auto body = std::as_bytes(std::span(&value, 1));
  transport::send_all(left.native_handle(), std::as_bytes(std::span(&length, 1)), soon(), "right");
  transport::send_all(left.native_handle(), body.first(3), soon(), "right");
  std::thread rest([&, sender = left.native_handle()] {
    std::this_thread::sleep_for(20ms);
    transport::send_all(sender, body.subspan(3), soon(), "right");
  });
  EXPECT_EQ(right.receive_record<std::uint64_t>(soon()), value);
  rest.join();
}

TEST(Connection, HeldSendsWaitForSendHeldAndArriveInOrder) {
  auto [left, right] = connection::make_pair("right", "left");
  left.hold_sends();
  left.send_record(std::uint32_t{1}, soon());
  left.send_record(std::uint64_t{2}, soon());
  EXPECT_FALSE(right.poll(0ms)) << "a held record was sent before send_held";
  left.send_held(soon());
  EXPECT_EQ(right.receive_record<std::uint32_t>(soon()), 1U);
  EXPECT_EQ(right.receive_record<std::uint64_t>(soon()), 2U);
  left.send_record(std::uint32_t{3}, soon());  // no longer held
  EXPECT_EQ(right.receive_record<std::uint32_t>(soon()), 3U);
}

// Whatever is not a short message, and any receive, sends what is held first: the peer never sees
// messages out of order, and a sender awaiting a reply never waits on its own held request.
TEST(Connection, HeldSendsGoFirstWhenALongMessageOrAReceiveFollows) {
  auto [left, right] = connection::make_pair("right", "left");
  left.hold_sends();
  left.send_record(std::uint32_t{1}, soon());
  const auto long_message = patterned(64 << 10);
  left.send(long_message, soon());
  EXPECT_EQ(right.receive_record<std::uint32_t>(soon()), 1U);
  EXPECT_EQ(right.receive(soon(), echo_cap), long_message);

  left.hold_sends();
  left.send_record(std::uint32_t{4}, soon());
  right.send_record(std::uint32_t{5}, soon());
  EXPECT_EQ(left.receive_record<std::uint32_t>(soon()), 5U);
  EXPECT_EQ(right.receive_record<std::uint32_t>(soon()), 4U);
}

TEST(Connection, HeldSendsBeyondOneWriteAreAllDelivered) {
  auto [left, right] = connection::make_pair("right", "left");
  left.hold_sends();
  for (std::uint64_t index = 0; index < 1000; ++index)
    left.send_record(index, soon());
  left.send_held(soon());
  for (std::uint64_t index = 0; index < 1000; ++index)
    ASSERT_EQ(right.receive_record<std::uint64_t>(soon()), index);
  EXPECT_FALSE(right.poll(0ms));
}

TEST(Connection, APeerThatClosedIsChannelClosed) {
  auto [left, right] = connection::make_pair("right", "left");
  { const connection gone = std::move(left); }
  EXPECT_THROW(right.receive(soon(), 16), channel_closed);
  EXPECT_THROW(right.send(patterned(16), soon()), channel_closed);
}

TEST(Connection, NothingToReceiveMeetsTheDeadline) {
  auto [left, right] = connection::make_pair("right", "left");
  const auto start = deadline_clock::now();
  EXPECT_THROW(right.receive(start + 200ms, 16), transport::deadline_exceeded);
  const auto waited = deadline_clock::now() - start;
  EXPECT_GE(waited, 200ms);
  EXPECT_LT(waited, 3s);
}

TEST(Connection, ADescriptorCrossesToAnotherProcess) {
  const transport::unique_fd file(::memfd_create("handoff-connection-test", MFD_CLOEXEC));
  ASSERT_GE(file.get(), 0);
  const std::string contents = "passed by SCM_RIGHTS";
  ASSERT_EQ(::write(file.get(), contents.data(), contents.size()),
            static_cast<ssize_t>(contents.size()));
  worker_pool pool("reader", 1, {.role = "connection_descriptor_reader"});
  pool.channel(0).send_fd(file.get(), soon());
  const auto echoed = pool.channel(0).receive(soon(), 4096);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(echoed.data()), echoed.size()), contents);
  pool.shutdown_expecting_success(10s);
}

std::size_t open_descriptors() {
  std::size_t count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
    ++count;
  return count;
}

// Found by fuzz/connection_fuzzer.cpp: a peer that sent two descriptors beside the carrier byte got
// a process_error, as it should, but both descriptors stayed open in the receiving process, so a
// worker could exhaust its coordinator's descriptors. Three (more than the control buffer holds)
// must not leak either.
TEST(Connection, ExtraDescriptorsFromAPeerAreRefusedAndClosed) {
  const transport::unique_fd passed(::memfd_create("handoff-connection-test", MFD_CLOEXEC));
  ASSERT_GE(passed.get(), 0);
  for (const std::size_t count : {std::size_t{2}, std::size_t{3}}) {
    auto [left, right] = connection::make_pair("right", "left");
    const std::size_t before = open_descriptors();
    const std::uint64_t length = 1;
    transport::send_all(left.native_handle(), std::as_bytes(std::span(&length, 1)), soon(),
                        "right");
    std::byte carrier{0x46};
    iovec payload{&carrier, 1};
    alignas(cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &payload;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = CMSG_SPACE(count * sizeof(int));
    cmsghdr* header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(count * sizeof(int));
    const int fds[3] = {passed.get(), passed.get(), passed.get()};
    std::memcpy(CMSG_DATA(header), fds, count * sizeof(int));
    ASSERT_EQ(::sendmsg(left.native_handle(), &message, MSG_NOSIGNAL), 1);
    try {
      right.receive_fd(soon());
      ADD_FAILURE() << count << " descriptors were taken for one";
    } catch (const transport::process_error& error) {
      EXPECT_NE(std::string(error.what()).find("expected one descriptor"), std::string::npos)
          << error.what();
    }
    EXPECT_EQ(open_descriptors(), before) << count << " descriptors sent";
  }
}

TEST(Connection, AnOrdinaryMessageIsNotADescriptor) {
  auto [left, right] = connection::make_pair("right", "left");
  left.send(patterned(1), soon());
  EXPECT_THROW(right.receive_fd(soon()), transport::process_error);
}

}  // namespace
}  // namespace handoff::patterns
