#pragma once
// postproc_split's starting point, made once per size and kept while consecutive benchmarks share
// it: c = a + b from seeded never-zero inputs, computed by the vector add kernel into device memory
// (untimed), its host copy (the CPU reference's c, and the host stand-in's "device memory"), and
// the double-precision oracle of its sum.

#include <cstddef>
#include <vector>

#include "handoff/device_buffer.hpp"

namespace handoff::bench {

struct split_inputs {
  std::size_t count = 0;
  bool on_device = false;
  std::vector<float> c;  // reference::vector_add(a, b)
  double expected_sum = 0.0;
  device_buffer<float> device_c;  // launch_vector_add's c, checked equal to c; empty off the device
};

// The device's c is checked element for element against the reference before it is used; a
// mismatch is std::runtime_error. Released when the benchmarks finish.
const split_inputs& split_inputs_for(std::size_t count, bool on_device);

}  // namespace handoff::bench
