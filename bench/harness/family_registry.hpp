#pragma once
// Benchmark families register themselves at start-up; main() decides which to instantiate. A family
// that needs more GPUs than the machine has is not registered and is reported as skipped, with
// the reason, while every other family still runs.

#include <functional>
#include <string>
#include <vector>

#include "bench_config.hpp"

namespace handoff::bench {

struct benchmark_family {
  std::string name;  // e.g. "elementwise/vector_add" or "ceilings/pcie"
  int min_gpus = 0;
  std::function<void(const bench_environment&)> register_benchmarks;
  // Beyond the GPU count: a reason this machine cannot run the family (say, no peer access), or
  // an empty string when it can.
  std::function<std::string(const bench_environment&)> unavailable_reason = nullptr;
  // The size axes a user may set for it (--handoff-axis; its pattern's settable_axes).
  std::vector<std::string> settable_axes = {};
};

bool add_family(benchmark_family family);
// Families made once main has started, in this place of the registration order: those that a
// pattern's table declares (its rows may be initialised before main in any order).
bool add_families(std::function<std::vector<benchmark_family>()> make);

struct family_plan {
  std::string name;
  bool runs = false;
  std::string skip_reason;  // empty when it runs
  std::vector<std::string> settable_axes = {};
};

// Which families this environment runs, in run order (ceilings first), and why the others skip.
std::vector<family_plan> plan_families(const bench_environment& environment);

// The skipped families grouped by reason: "reason: family, family; reason: family".
std::string describe_skipped(const std::vector<family_plan>& plan);

// Registers the families the plan runs; returns the plan.
std::vector<family_plan> register_families(const bench_environment& environment);

}  // namespace handoff::bench

// A family's file keeps its helpers in a namespace of its own, handoff::bench::<family>, and the
// macro names its flag by __COUNTER__, so that files compiled together (the sanitizer presets'
// unity builds) never share a name.
#define HANDOFF_CONCAT_INNER(a, b) a##b
#define HANDOFF_CONCAT(a, b) HANDOFF_CONCAT_INNER(a, b)
#define HANDOFF_BENCHMARK_FAMILY(...)                                               \
  [[maybe_unused]] static const bool HANDOFF_CONCAT(handoff_family_, __COUNTER__) = \
      ::handoff::bench::add_family(::handoff::bench::benchmark_family{__VA_ARGS__})
#define HANDOFF_BENCHMARK_FAMILIES(make)                                            \
  [[maybe_unused]] static const bool HANDOFF_CONCAT(handoff_family_, __COUNTER__) = \
      ::handoff::bench::add_families(make)
