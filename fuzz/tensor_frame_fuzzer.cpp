// libFuzzer target for the tensor frame decoder, the code that reads untrusted bytes from another
// process. Malformed input must end in a frame_error; anything else is a finding: a crash, an
// ASan or UBSan report, another exception type, an allocation beyond -malloc_limit_mb, or a frame
// that decodes but breaks one of the invariants checked below.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>

#include "handoff/transport/tensor_frame.hpp"

namespace {

using namespace handoff::transport;

constexpr std::uint64_t payload_cap = std::uint64_t{1} << 20;

void require(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "tensor_frame_fuzzer: invariant broken: %s\n", invariant);
  std::abort();
}

// A header that decodes must be within the limits it was checked against, and must re-encode to
// exactly its own bytes: the decoder accepts nothing the encoder would not have written.
void exercise_header(std::span<const std::byte> bytes) {
  frame_header header;
  try {
    header = decode_frame_header(bytes, payload_cap);
  } catch (const frame_error&) {
    return;
  }
  require(header.payload_bytes <= payload_cap, "payload_bytes within the cap");
  require(header.tensor.shape.size() <= max_frame_rank, "rank within the maximum");
  require(header.tensor.payload_bytes() == header.payload_bytes, "shape matches payload_bytes");
  const auto encoded = encode_frame_header(header.tensor, header.payload_bytes);
  require(std::equal(encoded.begin(), encoded.end(), bytes.begin()), "header re-encodes to itself");
}

// A frame that decodes must be exactly header, payload and trailer, re-encode to itself, and pass
// its trailer check when its payload is hashed piece by piece, as a streaming receiver hashes it.
void exercise_frame(std::span<const std::byte> bytes) {
  decoded_frame frame;
  try {
    frame = decode_frame(bytes, payload_cap);
  } catch (const frame_error&) {
    return;
  }
  require(frame.payload.data() == bytes.data() + frame_header_bytes, "payload follows the header");
  require(frame.payload.size() == frame.header.payload_bytes, "payload has the claimed size");
  const auto trailer = bytes.subspan(frame_header_bytes + frame.payload.size());
  require(trailer.size() == frame_trailer_bytes, "the trailer ends the frame");
  require(decode_frame_trailer(trailer) == frame.checksum, "checksum is the trailer's");
  const auto encoded = encode_frame(frame.header.tensor, frame.payload);
  require(std::ranges::equal(encoded, bytes), "frame re-encodes to itself");

  frame_checksum streamed;
  for (std::size_t at = 0; at < frame.payload.size(); at += 7) {
    streamed.update(frame.payload.subspan(at, std::min<std::size_t>(7, frame.payload.size() - at)));
  }
  verify_frame_trailer(frame.header, trailer,
                       streamed.digest());  // a throw here escapes: a finding
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span bytes(reinterpret_cast<const std::byte*>(data), size);
  exercise_header(bytes);
  exercise_frame(bytes);
  return 0;
}
