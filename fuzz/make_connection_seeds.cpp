// Writes the seed corpus of connection_fuzzer (ci/fuzz --seed): the bytes a real connection's
// send, send_record and send_fd put on the socket, one piece per send, each paired with the
// receiving call it answers; and near misses for each way receiving fails (a message over the cap,
// a record of the wrong size, a descriptor missing, doubled or riding on the length, a stream cut
// short).

#include <cstdint>
#include <string>
#include <vector>

#include "connection_script.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "script_seed_writer.hpp"
#include "sent_bytes.hpp"

namespace {

using namespace handoff::transport;
using bytes = std::vector<std::byte>;

// The calls of connection_fuzzer.cpp, by opcode.
enum call : std::uint8_t {
  receive = 0,
  record_8 = 1,
  record_40 = 2,
  record_544 = 3,
  streamed = 4,  // + 7 * k: a cap of 2^k, pieces of 1 + k % 5 * 13 bytes
  descriptor = 5,
  poll_only = 6,
};

bytes message(std::size_t length) {
  bytes payload(length);
  for (std::size_t i = 0; i < length; ++i)
    payload[i] = static_cast<std::byte>(i * 37 + 1);
  return fuzz_support::sent_by(
      [&](connection& channel, auto deadline) { channel.send(payload, deadline); });
}

bytes record(std::size_t size) {
  return message(size);  // send_record is send of the record's bytes
}

bytes little_endian(std::uint64_t value) {
  bytes out(8);
  for (std::size_t i = 0; i < 8; ++i)
    out[i] = static_cast<std::byte>(value >> (8 * i));
  return out;
}

bytes first(bytes all, std::size_t count) {
  all.resize(count);
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  const script_seed_writer write(*seeds);
  // send_fd's two pieces: the length 1, then one byte with the descriptor beside it.
  const bytes fd_length = little_endian(1);
  const bytes fd_carrier = {std::byte{0x46}};

  write("message-empty", {receive}, {message(0)});
  write("message-5", {receive}, {message(5)});
  write("messages-3", {receive, receive, receive}, {message(1), message(300), message(0)});
  write("record-8", {record_8}, {record(8)});
  write("record-40", {record_40}, {record(40)});
  write("record-544", {record_544}, {record(544)});
  write("streamed-100", {streamed + 7 * 7}, {message(100)});
  write("streamed-1000-then-poll", {streamed + 7 * 10, poll_only, receive},
        {message(1000), message(2)});
  write("descriptor", {descriptor}, {fd_length, fd_carrier}, {0, 1});
  write("descriptor-then-record", {descriptor, record_40}, {fd_length, fd_carrier, record(40)},
        {0, 1, 0});
  write("record-then-descriptor", {record_8, descriptor}, {record(8), fd_length, fd_carrier},
        {0, 0, 1});

  write("near-over-the-cap", {receive, receive}, {little_endian(std::uint64_t{1} << 17)});
  write("near-length-huge", {streamed + 7 * 16}, {little_endian(~std::uint64_t{0})});
  write("near-record-of-wrong-size", {record_8, record_40}, {record(40), record(8)});
  write("near-descriptor-missing", {descriptor}, {fd_length, fd_carrier});
  write("near-descriptor-doubled", {descriptor}, {fd_length, fd_carrier}, {0, 2});
  write("near-descriptor-tripled", {descriptor, receive}, {fd_length, fd_carrier, message(1)},
        {0, 3, 0});
  write("near-descriptor-on-the-length", {descriptor}, {fd_length, fd_carrier}, {1, 0});
  write("near-descriptor-on-a-message", {receive, descriptor}, {message(3), fd_length}, {1, 0});
  write("near-descriptor-long-message", {descriptor}, {message(2)}, {1});
  write("near-truncated-length", {receive}, {first(message(10), 5)});
  write("near-truncated-body", {receive}, {first(message(100), 50)});
  write("near-truncated-record", {record_544}, {first(record(544), 300)});
  return 0;
}
