#pragma once
// What the seed programs of the connection-borne targets share: the bytes a real connection's
// sends put on its socket, captured from the other end.

#include <poll.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <vector>

#include "handoff/transport/channels/connection.hpp"

namespace fuzz_support {

inline std::vector<std::byte> sent_by(
    const std::function<void(handoff::transport::connection&,
                             handoff::transport::deadline_clock::time_point)>& send) {
  using namespace handoff::transport;
  auto [ours, theirs] = connection::make_pair("seed", "seed");
  send(ours, deadline_clock::now() + std::chrono::seconds(5));
  std::vector<std::byte> out(1 << 16);
  std::size_t got = 0;
  pollfd ready{theirs.native_handle(), POLLIN, 0};
  while (got < out.size() && ::poll(&ready, 1, 0) > 0) {
    const ssize_t read = ::read(theirs.native_handle(), out.data() + got, out.size() - got);
    if (read <= 0) break;
    got += static_cast<std::size_t>(read);
  }
  out.resize(got);
  return out;
}

// The bytes of one record, as send_record puts it on the socket.
template <class Record>
std::vector<std::byte> record_sent(const Record& record) {
  return sent_by([&](auto& channel, auto deadline) { channel.send_record(record, deadline); });
}

}  // namespace fuzz_support
