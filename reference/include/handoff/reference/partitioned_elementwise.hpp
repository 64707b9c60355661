#pragma once
// The oracle for a user kernel of seed 004 run over an array partitioned across devices: each
// output element is the workload's CPU reference of its input element and the value of the device
// that ran the element's part (the article's output = input * 2, or output = input + value). The
// workload is a plain function here, not a name, so that any registered workload, the article's or
// a user's (patterns/multi_gpu/workload_registry.hpp), is checked the same way. The partition
// arrives as plain ranges, because the reference may not depend on patterns/, where the
// partitioners live.

#include <cstddef>
#include <span>

namespace handoff::reference {

// One output element from its input element and the value its device was given.
using element_reference = float (*)(float input, float device_value);

// The value a device adds in add_device_value: 1 + device, the article's 1.0 and 2.0 for devices 0
// and 1. Exactly representable for any device count a host can have.
float device_value_of(int device) noexcept;

struct value_range {
  std::size_t offset = 0;
  std::size_t count = 0;
  float value = 0.0f;
};

// output[i] = element(input[i], the value of the range holding i). The ranges, in any order, must
// tile [0, input.size()) exactly: std::invalid_argument names the first index left uncovered (or
// covered twice, or past the end). input and output must be the same size, and element not null
// (std::invalid_argument).
void apply_partitioned(element_reference element, std::span<const float> input,
                       std::span<const value_range> ranges, std::span<float> output);

}  // namespace handoff::reference
