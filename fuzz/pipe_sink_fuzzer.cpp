// libFuzzer target for the pipe-sink worker (bench/workers/pipe_sink.cpp), which reads whatever
// its sender writes into its stdin: length-prefixed messages, each answered with its length and
// XXH3 hash. The input is written into a pipe as the sender would write it, the pipe is closed,
// and the sink's loop (serve_pipe_sink) reads it, answering into a memory file. Its exit code and
// its answers must be exactly what the stream calls for: one answer per whole message, then 0 if
// the stream ended between messages, 3 for a length over the cap, 4 for a stream that ends inside
// a message (its length included). Anything else is a finding: a crash, an ASan or UBSan report,
// an exception, a wrong or missing answer, a wrong exit code, an allocation of what a length
// claims (-malloc_limit_mb), or a hang.

#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../bench/workers/pipe_sink.hpp"
#include "connection_script.hpp"
#include "handoff/transport/fd_io.hpp"

namespace {

using namespace handoff;
using fuzz_support::require;

struct answer {
  std::uint64_t length;
  std::uint64_t hash;
};

struct expected_run {
  std::vector<answer> answers;
  int exit_code = 0;
};

// What the sink must do with this stream.
expected_run expect(const std::uint8_t* data, std::size_t size) {
  expected_run out;
  std::size_t position = 0;
  while (position < size) {
    if (size - position < sizeof(std::uint64_t)) {
      out.exit_code = 4;
      return out;
    }
    std::uint64_t length = 0;
    std::memcpy(&length, data + position, sizeof(length));
    position += sizeof(length);
    if (length > bench::pipe_sink_max_message_bytes) {
      out.exit_code = 3;
      return out;
    }
    if (size - position < length) {
      out.exit_code = 4;
      return out;
    }
    out.answers.push_back({length, XXH3_64bits(data + position, length)});
    position += length;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Within one pipe's capacity, so that writing never waits for the sink.
  if (size > (std::size_t{1} << 16)) return 0;
  auto to_sink = transport::make_cloexec_pipe();
  if (size > 0) {
    require(::write(to_sink.write_end.get(), data, size) == static_cast<ssize_t>(size), "write");
  }
  to_sink.write_end.reset();
  // A memory file never fills, so the sink's answers never wait either.
  const transport::unique_fd answers(::memfd_create("pipe_sink_answers", MFD_CLOEXEC));
  require(answers.get() >= 0, "memfd_create");
  // Nothing in the stream can make the sink wait: its sender has closed the pipe.
  const int code =
      bench::serve_pipe_sink(to_sink.read_end.get(), answers.get(), std::chrono::seconds(5));

  const expected_run expected = expect(data, size);
  require(code == expected.exit_code, "the exit code the stream calls for");
  std::vector<answer> got(expected.answers.size() + 1);
  const ssize_t read = ::pread(answers.get(), got.data(), got.size() * sizeof(answer), 0);
  require(read == static_cast<ssize_t>(expected.answers.size() * sizeof(answer)),
          "one answer per whole message");
  for (std::size_t index = 0; index < expected.answers.size(); ++index) {
    require(got[index].length == expected.answers[index].length, "an answer's length");
    require(got[index].hash == expected.answers[index].hash, "an answer's hash");
  }
  return 0;
}
