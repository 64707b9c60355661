#pragma once
// What the fuzzers that read from a connection share: how an input becomes what a peer sends, how
// it is sent (pieces, each with sendmsg and some descriptors beside it, as SCM_RIGHTS), and the
// checks every fuzzer makes. The seed programs encode with the same layout.
//
// An input is: one byte n, then n call bytes (what the receiving end does, read by each fuzzer in
// its own way); then up to max_pieces pieces, each a flags byte (its low two bits: how many
// descriptors ride on the piece), a 16-bit little-endian length and that many bytes. A length past
// the input's end takes what is left; the last piece takes everything after it.

#include <dirent.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

namespace fuzz_support {

inline void require(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "fuzzer: invariant broken: %s\n", invariant);
  std::abort();
}

// What send_script passes beside a piece: another reference to /dev/null, opened once.
inline int passed_descriptor() {
  static const int passed = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  require(passed >= 0, "/dev/null opens");
  return passed;
}

// Entries of /proc/self/fd: a descriptor a call leaves open shows as one more. (The descriptor
// send_script passes is opened first, so that it counts from the first call on.)
inline std::size_t open_descriptors() {
  passed_descriptor();
  DIR* directory = ::opendir("/proc/self/fd");
  require(directory != nullptr, "/proc/self/fd can be read");
  std::size_t count = 0;
  while (::readdir(directory) != nullptr)
    ++count;
  ::closedir(directory);
  return count;
}

struct piece {
  unsigned descriptors = 0;  // 0 to 3
  std::span<const std::uint8_t> bytes;
};

struct script {
  static constexpr std::size_t max_pieces = 64;

  std::span<const std::uint8_t> calls;
  std::vector<piece> pieces;

  static script parse(std::span<const std::uint8_t> input) {
    script out;
    if (input.empty()) return out;
    const std::size_t call_count = std::min<std::size_t>(input[0], input.size() - 1);
    out.calls = input.subspan(1, call_count);
    input = input.subspan(1 + call_count);
    while (!input.empty()) {
      const unsigned flags = input[0];
      if (out.pieces.size() + 1 == max_pieces || input.size() < 3) {
        out.pieces.push_back({0, input.subspan(std::min<std::size_t>(input.size(), 1))});
        break;
      }
      const std::size_t length = std::min<std::size_t>(input[1] | input[2] << 8, input.size() - 3);
      out.pieces.push_back({flags & 3U, input.subspan(3, length)});
      input = input.subspan(3 + length);
    }
    return out;
  }
};

// Sends every piece on socket, without waiting: what does not fit in the socket's buffer is not
// sent. Each descriptor beside a piece is passed_descriptor(), so a received descriptor that the
// receiver leaves open shows in open_descriptors.
inline void send_script(int socket, const script& input) {
  const int passed = passed_descriptor();
  for (const piece& next : input.pieces) {
    if (next.bytes.empty()) continue;  // a stream socket sends nothing, nor any descriptor, for 0
    iovec payload{const_cast<std::uint8_t*>(next.bytes.data()), next.bytes.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &payload;
    message.msg_iovlen = 1;
    if (next.descriptors > 0) {
      message.msg_control = control;
      message.msg_controllen = CMSG_SPACE(next.descriptors * sizeof(int));
      cmsghdr* header = CMSG_FIRSTHDR(&message);
      header->cmsg_level = SOL_SOCKET;
      header->cmsg_type = SCM_RIGHTS;
      header->cmsg_len = CMSG_LEN(next.descriptors * sizeof(int));
      const int fds[3] = {passed, passed, passed};
      std::memcpy(CMSG_DATA(header), fds, next.descriptors * sizeof(int));
    }
    const ssize_t sent = ::sendmsg(socket, &message, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (sent < 0 && errno == EAGAIN) return;
    require(sent >= 0, "sendmsg on a fresh socketpair");
    if (static_cast<std::size_t>(sent) < next.bytes.size()) return;
  }
}

// The seed programs' side: the bytes of an input made of these calls and pieces.
inline std::vector<std::byte> encode_script(std::span<const std::uint8_t> calls,
                                            const std::vector<std::vector<std::byte>>& pieces,
                                            const std::vector<unsigned>& descriptors = {}) {
  std::vector<std::byte> out;
  out.push_back(static_cast<std::byte>(calls.size()));
  for (const std::uint8_t call : calls)
    out.push_back(static_cast<std::byte>(call));
  for (std::size_t index = 0; index < pieces.size(); ++index) {
    const auto& bytes = pieces[index];
    require(bytes.size() < (1U << 16), "a piece under 64 KiB");
    out.push_back(static_cast<std::byte>(index < descriptors.size() ? descriptors[index] : 0));
    out.push_back(static_cast<std::byte>(bytes.size() & 0xff));
    out.push_back(static_cast<std::byte>(bytes.size() >> 8));
    out.insert(out.end(), bytes.begin(), bytes.end());
  }
  return out;
}

}  // namespace fuzz_support
