#pragma once
// What handoff_bench was asked to do, beyond Google Benchmark's own flags.

#include <cstdint>
#include <string>
#include <vector>

#include "handoff/device_discovery.hpp"

namespace handoff::bench {

// 2^32 floats is 16 GiB per buffer: beyond it the element axes would not fit in host memory.
inline constexpr std::uint64_t max_element_count = std::uint64_t{1} << 32;
inline constexpr double max_min_time_seconds = 3600.0;

struct bench_config {
  bool smoke = false;               // every family once, at a tiny size
  bool list_families = false;       // print which families this machine runs or skips, then exit
  bool plant_wrong_result = false;  // add a benchmark whose result is wrong, to test the harness
  double min_time_seconds = 0.5;    // per benchmark, unless a family fixes its iterations
  std::uint64_t max_elements = std::uint64_t{1} << 28;
  // Runs the families (not the ceilings, which always come first) in an order drawn from this
  // seed: ci/nightly's repetitions are separate runs, each in its own random order, so that no
  // family always follows the same neighbour. 0 keeps the registration order.
  std::uint64_t shuffle_seed = 0;
};

struct bench_environment {
  bench_config config;
  gpu_count_result gpus;
};

// Removes the --handoff-* flags it understands from argv; throws std::invalid_argument on a bad
// one.
bench_config parse_handoff_flags(int& argc, char** argv);

std::string handoff_flags_help();

}  // namespace handoff::bench
