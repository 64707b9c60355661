#pragma once
// Typed failures of tensor framing. A frame crosses a process boundary, so its bytes are untrusted:
// each way a frame can be malformed has its own type, and every message names the offending values.

#include <stdexcept>

namespace handoff::transport {

class frame_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Fewer bytes than the header, or than the header plus the payload it claims.
class frame_truncated : public frame_error {
 public:
  using frame_error::frame_error;
};

// Bytes left over after the payload the header claims. A frame is exactly header plus payload;
// extra bytes mean the sender and receiver disagree about where frames end.
class frame_trailing_bytes : public frame_error {
 public:
  using frame_error::frame_error;
};

class frame_bad_magic : public frame_error {
 public:
  using frame_error::frame_error;
};

class frame_unsupported_version : public frame_error {
 public:
  using frame_error::frame_error;
};

class frame_unsupported_dtype : public frame_error {
 public:
  using frame_error::frame_error;
};

class frame_bad_rank : public frame_error {
 public:
  using frame_error::frame_error;
};

// Shape and byte count disagree, the shape's byte count overflows 64 bits, or a dimension beyond
// the rank is not zero.
class frame_shape_mismatch : public frame_error {
 public:
  using frame_error::frame_error;
};

class frame_checksum_mismatch : public frame_error {
 public:
  using frame_error::frame_error;
};

// The payload the frame claims is larger than the receiver's cap.
class frame_too_large : public frame_error {
 public:
  using frame_error::frame_error;
};

}  // namespace handoff::transport
