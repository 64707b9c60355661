#include "handoff/patterns/tensor_transfer/framing.hpp"

#include <string>

#include "handoff/patterns/tensor_transfer/timed_stage.hpp"

namespace handoff::patterns {

transport::tensor_description flat_float_tensor(std::uint64_t bytes) {
  return {transport::element_type::float32, {bytes / sizeof(float)}};
}

framed_source frame_source(const tensor_memory& source, std::vector<std::byte>& staging,
                           stage_times& stages) {
  std::span<const std::byte> payload = source.host_data();
  if (source.device_data() != nullptr) {
    staging.resize(source.bytes());
    timed_stage(stages.d2h, [&] { source.copy_to_host(0, staging); });
    payload = staging;
  }
  const auto header = timed_stage(stages.serialize, [&] {
    return transport::encode_frame_header(flat_float_tensor(payload.size()), payload);
  });
  return {header, payload};
}

std::span<std::byte> landing_for(tensor_memory& destination, std::vector<std::byte>& staging) {
  if (destination.device_data() == nullptr) return destination.host_data();
  staging.resize(destination.bytes());
  return staging;
}

void finish_landing(tensor_memory& destination, std::span<const std::byte> landing,
                    stage_times& stages) {
  if (destination.device_data() == nullptr) return;
  timed_stage(stages.h2d, [&] { destination.copy_from_host(0, landing); });
}

transport::frame_header decode_header_for(std::span<const std::byte> header_bytes,
                                          const tensor_memory& destination, stage_times& stages) {
  const auto header = timed_stage(stages.deserialize, [&] {
    return transport::decode_frame_header(header_bytes, destination.bytes());
  });
  if (header.payload_bytes != destination.bytes()) {
    throw transport::frame_shape_mismatch("frame carries " + std::to_string(header.payload_bytes) +
                                          " payload bytes; the receiver expects " +
                                          std::to_string(destination.bytes()));
  }
  return header;
}

void require_frame_length(const transport::frame_header& header, std::uint64_t message_bytes) {
  if (message_bytes != transport::frame_header_bytes + header.payload_bytes) {
    throw transport::frame_shape_mismatch("message of " + std::to_string(message_bytes) +
                                          " bytes for a frame of " +
                                          std::to_string(header.payload_bytes) + " payload bytes");
  }
}

}  // namespace handoff::patterns
