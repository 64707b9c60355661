// handoff_bench: every benchmark family, with the environment manifest and the run's settings in
// the JSON context, progress per family, a results file rewritten as rows finish (valid and marked
// incomplete when the run is interrupted), and a summary against this run's ceilings. Exits
// non-zero when any benchmark failed verification or errored, so a wrong result can never pass as a
// fast one.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdio>
#include <exception>
#include <iostream>
#include <map>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/context_release.hpp"
#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "harness/bench_config.hpp"
#include "harness/ceiling_source.hpp"
#include "harness/ceiling_summary.hpp"
#include "harness/driver.hpp"
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
#include "selftest/planted_wrong_result.hpp"

namespace {

void print_family_plan(std::ostream& out, const handoff::bench::bench_environment& environment) {
  out << "gpus: " << environment.gpus.count << "\n";
  if (!environment.gpus.reason.empty()) out << "gpu_reason: " << environment.gpus.reason << "\n";
  for (const auto& family : handoff::bench::plan_families(environment)) {
    out << (family.runs ? "runs  " : "skips ") << family.name;
    if (!family.runs) out << ": " << family.skip_reason;
    out << "\n";
  }
}

// --help: Google Benchmark's flags, then handoff's own.
void print_help() {
  std::fputs(
      "handoff_bench: measures the ways a CPU process hands work and data to GPUs (process pools,\n"
      "queued GPU workers, post-processing splits, tensors passed between processes, data split\n"
      "over GPUs), each as the articles' recipe and as faster variants. Every row verifies what "
      "it\n"
      "timed against a CPU reference and is set against this machine's ceilings (PCIe, HBM,\n"
      "NVLink, pipe, memcpy), measured in the same run. Rows without a usable GPU are skipped\n"
      "with the reason. Google Benchmark's flags come first, then handoff's own.\n\n",
      stdout);
  benchmark::PrintDefaultHelp();
  std::fprintf(stdout, "\n%s", handoff::bench::handoff_flags_help().c_str());
}

// The value of a Google Benchmark flag on the command line, or fallback.
std::string flag_value(int argc, char** argv, std::string_view flag, std::string fallback) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with(flag) && argument.size() > flag.size() && argument[flag.size()] == '=')
      fallback = std::string(argument.substr(flag.size() + 1));
  }
  return fallback;
}

// A boolean flag as Google Benchmark reads it: bare, or with a value other than a false one.
bool flag_is_set(int argc, char** argv, std::string_view flag) {
  bool set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument == flag) {
      set = true;
    } else if (argument.starts_with(flag) && argument.size() > flag.size() &&
               argument[flag.size()] == '=') {
      std::string value(argument.substr(flag.size() + 1));
      std::ranges::transform(value, value.begin(), [](unsigned char c) { return std::tolower(c); });
      set = !(value == "false" || value == "0" || value == "f" || value == "n" || value == "no" ||
              value == "off");
    }
  }
  return set;
}

// The results file is handoff's own (results_writer, or run_reporter's plain file): Google
// Benchmark's flags for it are taken off the line, so that Google Benchmark does not write a
// second, unannotated copy, nor empty the file at each of the run's calls into it.
std::vector<char*> without_output_file_flags(int argc, char** argv) {
  std::vector<char*> kept;
  for (int i = 0; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (i > 0 && (argument.starts_with("--benchmark_out=") ||
                  argument.starts_with("--benchmark_out_format="))) {
      continue;
    }
    kept.push_back(argv[i]);
  }
  return kept;
}

std::string ceilings_filter(const std::vector<std::string>& ceilings) {
  std::string alternatives;
  for (const auto& name : ceilings)
    alternatives += (alternatives.empty() ? "" : "|") + name;
  return "^ceilings/(" + alternatives + ")/";
}

int run_benchmarks(int argc, char** argv) {
  using namespace handoff::bench;
  const bench_config config = parse_handoff_flags(argc, argv);
  const std::string results_path = json_results_path(argc, argv);
  const bool listing = flag_is_set(argc, argv, "--benchmark_list_tests");
  const auto display =
      parse_display_format(flag_value(argc, argv, "--benchmark_format", "console"));
  const std::string out_path = flag_value(argc, argv, "--benchmark_out", "");
  const std::string out_format = flag_value(argc, argv, "--benchmark_out_format", "json");
  plain_results_file plain_file;
  if (out_format != "json") {
    if (out_format != "console" && out_format != "csv") {
      throw std::invalid_argument(
          "handoff_bench: --benchmark_out_format is json, console or csv, not '" + out_format +
          "'");
    }
    if (!listing) plain_file = {out_path, parse_display_format(out_format)};
  }
  const run_settings settings{
      flag_value(argc, argv, "--benchmark_filter", ""),
      // Checked here because this driver reads it before Google Benchmark does.
      parse_count("--benchmark_repetitions", flag_value(argc, argv, "--benchmark_repetitions", "1"),
                  10'000)};
  // Each row is one Google Benchmark iteration, inside which the driver samples until the row's
  // noise target (measure.hpp). Set as the global flag, names carry no min_time suffix.
  std::string min_time_flag = one_iteration_min_time_flag();
  std::vector<char*> arguments = out_path.empty() ? std::vector<char*>(argv, argv + argc)
                                                  : without_output_file_flags(argc, argv);
  arguments.insert(arguments.begin() + 1, min_time_flag.data());
  argc = static_cast<int>(arguments.size());
  argv = arguments.data();
  const bool unit_chosen = time_unit_chosen(argc, argv);
  benchmark::Initialize(&argc, argv, print_help);
  if (!unit_chosen) benchmark::SetDefaultTimeUnit(benchmark::kMicrosecond);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
    std::cerr << handoff_flags_help();
    return 2;
  }
  if (!listing && !config.list_families && !out_path.empty()) {
    check_results_path("--benchmark_out", out_path);
  }
  if (config.list_as_gpus > 0 && !listing && !config.list_families) {
    std::cerr << "handoff_bench: --handoff-list-as-gpus lists only: give it with "
                 "--benchmark_list_tests or --handoff-list-families\n";
    return 2;
  }
  const bench_environment environment{
      config, config.list_as_gpus > 0 ? handoff::gpu_count_result{config.list_as_gpus, {}}
                                      : handoff::gpu_count()};
  if (config.list_families) {
    print_family_plan(std::cout, environment);
    // Listed without a GPU too, so that a user can see a HANDOFF_USER_KERNELS file was built in.
    std::cout << "multi_gpu_workloads:";
    for (const auto* workload : handoff::patterns::multi_gpu::registered_workloads())
      std::cout << ' ' << workload->name;
    std::cout << '\n';
    return 0;
  }
  // A list as another machine would make it describes no machine: it needs no manifest.
  const auto manifest = config.list_as_gpus > 0 ? std::map<std::string, std::string>{}
                                                : collect_manifest(environment);
  add_manifest_to_context(manifest);
  add_settings_to_context(describe_settings(config, settings));
  benchmark::AddCustomContext("handoff_process", this_process().token);
  benchmark::AddCustomContext("handoff_stack_offset", std::to_string(this_process().stack_offset));
  benchmark::AddCustomContext("handoff_heap_offset", std::to_string(this_process().heap_offset));
  if (environment.gpus.count > 0 && config.list_as_gpus == 0)
    add_clocks_to_context(read_gpu_clocks());
  if (!config.ceilings_from.empty()) reuse_ceilings_from(config.ceilings_from, manifest);
  const auto plan = register_families(environment);
  if (const auto unread = chosen_axes_nobody_read(config, plan); !unread.empty()) {
    for (const auto& axis : unread) {
      std::cerr << "handoff_bench: --handoff-axis=" << axis
                << ": no family that runs on this machine has that axis "
                   "(--handoff-list-families says which run, and why the others do not)\n";
    }
    return 2;
  }
  if (config.plant_wrong_result) register_planted_wrong_result();
  if (config.smoke) {
    // Every variant of every table must have a smoke row: the rows a smoke run must produce come
    // from the tables, so a variant that lost its registration fails here, by name.
    // A variant whose own family this machine skips, with the reason printed below, is not lost.
    auto missing = variants_without_rows(environment.gpus.count > 0);
    std::erase_if(missing, [&](const std::string& variant) {
      return std::ranges::any_of(
          plan, [&](const family_plan& family) { return !family.runs && family.name == variant; });
    });
    if (!missing.empty()) {
      std::cerr << "handoff_bench: variants with no benchmark row:";
      for (const auto& variant : missing)
        std::cerr << " " << variant;
      std::cerr << "\n";
      return 2;
    }
    if (const auto undescribed = variants_without_description(); !undescribed.empty()) {
      std::cerr << "handoff_bench: variants whose table row has no description:";
      for (const auto& variant : undescribed)
        std::cerr << " " << variant;
      std::cerr << "\n";
      return 2;
    }
  }
  add_skipped_to_context(plan);
  benchmark::AddCustomContext("handoff_variants", variants_json());
  if (const std::string skipped = describe_skipped(plan); !skipped.empty()) {
    std::cerr << "handoff_bench: skipped, " << skipped << "\n";
  }

  stop_cleanly_on_interrupt();
  std::optional<progress_lines> progress;
  std::size_t rows_per_pass = 0;
  if (!listing) {
    const auto selected = rows_selected_by(settings.filter, registered_rows());
    rows_per_pass = selected.size();
    progress.emplace(std::cerr, rows_of_every_pass(selected, config.passes));
  }
  results_writer writer(listing ? std::string() : results_path);
  run_reporter reporter(isatty(STDOUT_FILENO) ? benchmark::ConsoleReporter::OO_Color
                                              : benchmark::ConsoleReporter::OO_None,
                        display, writer, progress ? &*progress : nullptr, plain_file, config);
  std::size_t ran = 0;
  const int passes = listing ? 1 : config.passes;
  // A run filtered to some patterns still prices its rows: after its first pass it knows the
  // ceilings their floors name that it neither measured nor reused, and measures them in every
  // pass, so that they have as many passes as the rows they price.
  std::string needed_ceilings_filter;
  for (int pass = 1; pass <= passes && !run_interrupted(); ++pass) {
    if (passes > 1) std::cerr << "handoff_bench: pass " << pass << " of " << passes << "\n";
    set_current_pass(pass);
    ran += benchmark::RunSpecifiedBenchmarks(&reporter);
    if (listing || run_interrupted() || ran == 0) continue;
    if (pass == 1) {
      if (const auto needed = ceilings_still_needed(reporter.runs()); !needed.empty()) {
        needed_ceilings_filter = ceilings_filter(needed);
        std::cerr << "handoff_bench: measuring the ceilings these rows need: "
                  << needed_ceilings_filter << "\n";
        const auto ceiling_rows = rows_selected_by(needed_ceilings_filter, registered_rows());
        for (int each = 1; each <= passes; ++each)
          progress->insert(each * rows_per_pass + (each - 1) * ceiling_rows.size(), ceiling_rows);
      }
    }
    if (!needed_ceilings_filter.empty())
      ran += benchmark::RunSpecifiedBenchmarks(&reporter, needed_ceilings_filter);
  }
  run_benchmarks_finished_hooks();
  handoff::release_ipc_contexts();
  benchmark::Shutdown();
  if (listing) return 0;
  reporter.finish(interruption_reason());
  const int status =
      exit_status_of_run("handoff_bench", ran, results_path, " (see --handoff-list-families)");
  // The results file is what a run exists to leave: its loss is the last thing said, and fails
  // the run whatever else happened.
  const std::string& lost =
      !writer.failure().empty() ? writer.failure() : reporter.plain_file_failure();
  if (lost.empty()) return status;
  std::cerr << "handoff_bench: the results were not saved: " << lost << "\n";
  return status != 0 ? status : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (const auto role_exit = handoff::transport::run_worker_role_if_requested(argc, argv)) {
    return *role_exit;
  }
  // A worker that dies must show up as EPIPE on its channel, not kill the coordinator.
  std::signal(SIGPIPE, SIG_IGN);
  const auto& layout = handoff::bench::this_process();
  handoff::bench::shift_the_heap(layout.heap_offset);
  // Every frame below this one starts stack_offset bytes lower than in another process.
  auto* stack_shift = static_cast<volatile char*>(__builtin_alloca(layout.stack_offset + 1));
  stack_shift[0] = 0;
  try {
    return run_benchmarks(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "handoff_bench: out of host memory (std::bad_alloc); a smaller "
                 "--handoff-max-elements needs less\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 2;
  }
}
