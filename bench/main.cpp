// handoff_bench: every benchmark family, with the environment manifest in the JSON context and a
// summary against this run's ceilings. Exits non-zero when any benchmark failed verification or
// errored, so a wrong result can never pass as a fast one.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "handoff/transport/process/worker_role.hpp"
#include "harness/bench_config.hpp"
#include "harness/ceiling_summary.hpp"
#include "harness/driver.hpp"
#include "harness/family_registry.hpp"
#include "harness/manifest.hpp"
#include "harness/outcome.hpp"
#include "harness/results_annotation.hpp"
#include "harness/run_end.hpp"
#include "selftest/planted_wrong_result.hpp"

namespace {

std::string one_iteration_min_time_flag() {
#if defined(HANDOFF_BENCHMARK_MIN_TIME_HAS_SUFFIX)
  return "--benchmark_min_time=1x";
#else
  // Any positive time below one sample's: the first iteration already meets it.
  return "--benchmark_min_time=0.000000001";
#endif
}

void print_family_plan(std::ostream& out, const handoff::bench::bench_environment& environment) {
  out << "gpus: " << environment.gpus.count << "\n";
  if (!environment.gpus.reason.empty()) out << "gpu_reason: " << environment.gpus.reason << "\n";
  for (const auto& family : handoff::bench::plan_families(environment)) {
    out << (family.runs ? "runs  " : "skips ") << family.name;
    if (!family.runs) out << ": " << family.skip_reason;
    out << "\n";
  }
}

int run_benchmarks(int argc, char** argv) {
  using namespace handoff::bench;
  const bench_config config = parse_handoff_flags(argc, argv);
  set_active_config(config);
  // Each row is one Google Benchmark iteration, inside which the driver samples until the row's
  // noise target (measure.hpp). Set as the global flag, names carry no min_time suffix.
  std::string min_time_flag = one_iteration_min_time_flag();
  std::vector<char*> arguments(argv, argv + argc);
  arguments.insert(arguments.begin() + 1, min_time_flag.data());
  argc = static_cast<int>(arguments.size());
  argv = arguments.data();
  const std::string results_path = json_results_path(argc, argv);  // Initialize consumes the flag
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    std::cerr << handoff_flags_help();
    return 2;
  }
  const bench_environment environment{config, handoff::gpu_count()};
  if (config.list_families) {
    print_family_plan(std::cout, environment);
    return 0;
  }
  add_manifest_to_context(collect_manifest(environment));
  const auto plan = register_families(environment);
  if (config.plant_wrong_result) register_planted_wrong_result();
  if (config.smoke) {
    // Every variant of every table must have a smoke row: the rows a smoke run must produce come
    // from the tables, so a variant that lost its registration fails here, by name.
    const auto missing = variants_without_rows(environment.gpus.count > 0);
    if (!missing.empty()) {
      std::cerr << "handoff_bench: variants with no benchmark row:";
      for (const auto& variant : missing)
        std::cerr << " " << variant;
      std::cerr << "\n";
      return 2;
    }
  }
  add_skipped_to_context(plan);
  if (const std::string skipped = describe_skipped(plan); !skipped.empty()) {
    std::cerr << "handoff_bench: skipped, " << skipped << "\n";
  }

  summarising_reporter reporter(isatty(STDOUT_FILENO) ? benchmark::ConsoleReporter::OO_Color
                                                      : benchmark::ConsoleReporter::OO_None);
  const std::size_t ran = benchmark::RunSpecifiedBenchmarks(&reporter);
  run_benchmarks_finished_hooks();
  benchmark::Shutdown();
  if (ran == 0) {
    std::cerr << "handoff_bench: no benchmark ran: the filter matched none of those this machine "
                 "can run (see --handoff-list-families)\n";
    return 2;
  }
  if (!results_path.empty()) annotate_results(results_path, reporter.runs());

  const int failures = failed_benchmark_count();
  if (failures > 0) {
    std::cerr << "handoff_bench: " << failures << " benchmark(s) failed verification or errored\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (const auto role_exit = handoff::transport::run_worker_role_if_requested(argc, argv)) {
    return *role_exit;
  }
  // A worker that dies must show up as EPIPE on its channel, not kill the coordinator.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    return run_benchmarks(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 2;
  }
}
