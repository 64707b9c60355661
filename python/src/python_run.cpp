#include "python_run.hpp"

#include <benchmark/benchmark.h>
#include <nanobind/stl/string.h>

#include <cstdio>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "harness/bench_config.hpp"
#include "harness/ceiling_source.hpp"
#include "harness/family_registry.hpp"
#include "harness/gpu_clocks.hpp"
#include "harness/interruption.hpp"
#include "harness/manifest.hpp"
#include "harness/outcome.hpp"
#include "harness/process_identity.hpp"
#include "harness/progress.hpp"
#include "harness/registration.hpp"
#include "harness/results_annotation.hpp"
#include "harness/results_file.hpp"
#include "harness/run_end.hpp"
#include "harness/run_reporter.hpp"
#include "harness/run_status.hpp"
#include "python_row.hpp"

namespace nb = nanobind;

namespace handoff::python {
namespace {

std::string flag_value(const std::vector<std::string>& arguments, std::string_view flag) {
  std::string value;
  for (const auto& argument : arguments) {
    if (argument.starts_with(flag) && argument.size() > flag.size() && argument[flag.size()] == '=')
      value = argument.substr(flag.size() + 1);
  }
  return value;
}

// The results file is results_writer's: Google Benchmark must not write a second, unannotated
// copy. Rows are one Google Benchmark iteration each, inside which the driver samples.
std::vector<std::string> for_google_benchmark(const std::vector<std::string>& arguments) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    const std::string_view argument = arguments[i];
    if (i > 0 && (argument.starts_with("--benchmark_out=") ||
                  argument.starts_with("--benchmark_out_format="))) {
      continue;
    }
    kept.push_back(arguments[i]);
    if (i == 0) kept.push_back(bench::one_iteration_min_time_flag());
  }
  return kept;
}

void add_context(const bench::bench_config& config, const std::vector<std::string>& arguments,
                 const std::string& variants_json, const std::vector<skipped_benchmark>& skipped) {
  using namespace handoff::bench;
  const bench_environment environment{config, gpu_count()};
  const auto manifest = collect_manifest(environment);
  add_manifest_to_context(manifest);
  if (!config.ceilings_from.empty()) reuse_ceilings_from(config.ceilings_from, manifest);
  const auto repetitions = flag_value(arguments, "--benchmark_repetitions");
  add_settings_to_context(describe_settings(
      config,
      {flag_value(arguments, "--benchmark_filter"),
       repetitions.empty() ? 1 : parse_count("--benchmark_repetitions", repetitions, 10'000)}));
  benchmark::AddCustomContext("handoff_process", this_process().token);
  if (environment.gpus.count > 0) add_clocks_to_context(read_gpu_clocks());
  benchmark::AddCustomContext("handoff_variants", variants_json);
  std::vector<family_plan> plan;
  for (const auto& [name, reason] : skipped)
    plan.push_back({.name = name, .runs = false, .skip_reason = reason});
  add_skipped_to_context(plan);
  if (const std::string said = describe_skipped(plan); !said.empty())
    std::cerr << "handoff: skipped, " << said << "\n";
}

run_answer run_once(std::vector<std::string> arguments,
                    std::vector<std::pair<std::string, nb::object>> rows,
                    const std::string& variants_json,
                    const std::vector<skipped_benchmark>& skipped) {
  using namespace handoff::bench;
  std::vector<char*> handoff_argv;
  for (auto& argument : arguments)
    handoff_argv.push_back(argument.data());
  int handoff_argc = static_cast<int>(handoff_argv.size());
  const bench_config config = parse_handoff_flags(handoff_argc, handoff_argv.data());
  std::vector<std::string> rest(handoff_argv.begin(), handoff_argv.begin() + handoff_argc);
  const bool listing = !flag_value(rest, "--benchmark_list_tests").empty() ||
                       std::ranges::find(rest, "--benchmark_list_tests") != rest.end();
  const std::string results_path = listing ? std::string() : flag_value(rest, "--benchmark_out");
  if (const auto format = flag_value(rest, "--benchmark_out_format");
      !format.empty() && format != "json") {
    return {2, run_problem::arguments,
            "--benchmark_out_format: a Python run writes json only, not '" + format + "'"};
  }
  auto google_arguments = for_google_benchmark(rest);
  std::vector<char*> google_argv;
  for (auto& argument : google_arguments)
    google_argv.push_back(argument.data());
  int google_argc = static_cast<int>(google_argv.size());
  const bool unit_chosen = time_unit_chosen(google_argc, google_argv.data());
  benchmark::Initialize(&google_argc, google_argv.data());
  if (!unit_chosen) benchmark::SetDefaultTimeUnit(benchmark::kMicrosecond);
  if (google_argc > 1) {
    return {2, run_problem::arguments, "unknown argument: " + std::string(google_argv[1])};
  }
  try {
    if (!results_path.empty()) check_results_path("--benchmark_out", results_path);
  } catch (const results_file_error& error) {
    return {2, run_problem::results_file, error.what()};
  }
  add_context(config, rest, variants_json, skipped);
  // Each row under its benchmark's family, so that the progress lines go family by family.
  for (auto& [name, row] : rows) {
    set_registering_family(nb::cast<std::string>(row.attr("benchmark").attr("family")), config);
    register_python_row(name, std::move(row));
  }
  std::optional<progress_lines> progress;
  if (!listing) {
    const auto selected =
        rows_selected_by(flag_value(rest, "--benchmark_filter"), registered_rows());
    progress.emplace(std::cerr, rows_of_every_pass(selected, config.passes), "handoff");
  }
  results_writer writer(results_path);
  run_reporter reporter(benchmark::ConsoleReporter::OO_None, display_format::console, writer,
                        progress ? &*progress : nullptr, {}, config);
  std::size_t ran = 0;
  const int passes = listing ? 1 : config.passes;
  for (int pass = 1; pass <= passes && !run_interrupted(); ++pass) {
    set_current_pass(pass);
    ran += benchmark::RunSpecifiedBenchmarks(&reporter);
  }
  run_benchmarks_finished_hooks();
  // The rows hold Python objects: they go now, while the interpreter is certainly up.
  benchmark::ClearRegisteredBenchmarks();
  benchmark::Shutdown();
  if (listing) return {};
  reporter.finish(interruption_reason());
  std::cout.flush();
  const int status = bench::exit_status_of_run("handoff", ran, results_path, "");
  if (!writer.failure().empty()) {
    return {status != 0 ? status : 1, run_problem::results_file,
            "the results were not saved: " + writer.failure()};
  }
  return {status, run_problem::none, {}};
}

}  // namespace

run_answer run_python_rows(std::vector<std::string> arguments,
                           std::vector<std::pair<std::string, nb::object>> rows,
                           const std::string& variants_json,
                           const std::vector<skipped_benchmark>& skipped) {
  static bool ran_before = false;
  if (ran_before) {
    return {2, run_problem::already_ran,
            "a process makes one run: Google Benchmark keeps the first run's context and rows"};
  }
  ran_before = true;
  try {
    return run_once(std::move(arguments), std::move(rows), variants_json, skipped);
  } catch (const std::invalid_argument& error) {
    return {2, run_problem::arguments, error.what()};
  }
}

}  // namespace handoff::python
