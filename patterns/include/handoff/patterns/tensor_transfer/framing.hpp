#pragma once
// The article's serialisation, shared by the host-path variants: the sender brings the tensor's
// bytes to host memory (tensor.cpu()) and frames them with a checksum; the receiver validates the
// frame, lands the bytes in host memory and, for a device tensor, copies them up (tensor.cuda()).

#include <cstdint>
#include <span>
#include <vector>

#include "handoff/patterns/stage_times.hpp"
#include "handoff/patterns/tensor_transfer/tensor_memory.hpp"
#include "handoff/transport/tensor_frame.hpp"

namespace handoff::patterns {

// A flat float32 tensor of this many bytes.
transport::tensor_description flat_float_tensor(std::uint64_t bytes);

struct framed_source {
  transport::frame_header_bytes_array header;
  std::span<const std::byte> payload;  // the host tensor itself, or staging for a device tensor
};
// d2h (for a device tensor) into staging, then the checksum (serialize).
framed_source frame_source(const tensor_memory& source, std::vector<std::byte>& staging,
                           stage_times& stages);

// Where received bytes land: the host tensor itself, or staging for a device tensor.
std::span<std::byte> landing_for(tensor_memory& destination, std::vector<std::byte>& staging);
// h2d from staging, for a device tensor; nothing for a host tensor.
void finish_landing(tensor_memory& destination, std::span<const std::byte> landing,
                    stage_times& stages);

// Validates a header against the destination it must fill; message_bytes, when known, is the
// whole frame's length as the channel reported it.
transport::frame_header decode_header_for(std::span<const std::byte> header_bytes,
                                          const tensor_memory& destination, stage_times& stages);
void require_frame_length(const transport::frame_header& header, std::uint64_t message_bytes);

}  // namespace handoff::patterns
