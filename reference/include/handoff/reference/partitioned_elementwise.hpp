#pragma once
// The oracle for seed 004's two user kernels run over an array partitioned across devices:
// output = input * 2, and output = input + value, where the value depends on the device that ran
// the element's part. Each is one IEEE single-precision operation, so every device's result must
// match this one bit for bit (0 ulp). The partition arrives as plain ranges, because the reference
// may not depend on patterns/, where the partitioners live.

#include <cstddef>
#include <span>
#include <string_view>

namespace handoff::reference {

enum class partitioned_operation { scale_by_two, add_device_value };

std::string_view partitioned_operation_name(partitioned_operation operation);

// The value a device adds in add_device_value: 1 + device, the article's 1.0 and 2.0 for devices 0
// and 1. Exactly representable for any device count a host can have.
float device_value_of(int device) noexcept;

struct value_range {
  std::size_t offset = 0;
  std::size_t count = 0;
  float value = 0.0f;
};

// output[i] = input[i] * 2, or input[i] + the value of the range holding i. The ranges, in any
// order, must tile [0, input.size()) exactly, for either operation: std::invalid_argument names the
// first index left uncovered (or covered twice, or past the end). input and output must be the
// same size (std::invalid_argument).
void apply_partitioned(partitioned_operation operation, std::span<const float> input,
                       std::span<const value_range> ranges, std::span<float> output);

}  // namespace handoff::reference
