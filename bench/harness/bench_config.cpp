#include "bench_config.hpp"

#include <unistd.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace handoff::bench {
namespace {

// A finite number in (0, most]; anything else is a clear error, never a hang or a huge allocation.
template <class Number>
Number parse_number(std::string_view flag, std::string_view text, Number most) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool finite = std::isfinite(static_cast<double>(value));
  if (error != std::errc{} || end != text.data() + text.size() || !finite || value <= Number{} ||
      value > most) {
    throw std::invalid_argument("handoff_bench: " + std::string(flag) + " needs a number in (0, " +
                                std::to_string(most) + "], got '" + std::string(text) + "'");
  }
  return value;
}

}  // namespace

patterns::sweep_settings sweep_settings_of(const bench_environment& environment) {
  const bench_config& config = environment.config;
  return {.profile = config.profile,
          .smoke = config.smoke,
          .max_elements = config.max_elements,
          .chosen = config.axes,
          .gpus = environment.gpus.count};
}

int parse_count(std::string_view flag, std::string_view text, int most) {
  return parse_number<int>(flag, text, most);
}

double host_memory_bytes() noexcept {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_bytes = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_bytes <= 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(pages) * static_cast<double>(page_bytes);
}

// The largest row keeps about four float arrays of the element cap in host memory at once (two
// inputs, the output and the reference); a cap past the machine's memory would end in a bare
// std::bad_alloc, or the OOM killer, somewhere inside a sweep.
void check_host_memory_for(std::uint64_t max_elements, double host_bytes) {
  const double needed_bytes = 4.0 * sizeof(float) * static_cast<double>(max_elements);
  if (needed_bytes <= host_bytes) return;
  constexpr double gib = 1024.0 * 1024.0 * 1024.0;
  char text[256];
  std::snprintf(
      text, sizeof text,
      "handoff_bench: --handoff-max-elements=%llu needs about %.1f GiB of host memory for "
      "its largest rows; this machine has %.1f GiB",
      static_cast<unsigned long long>(max_elements), needed_bytes / gib, host_bytes / gib);
  throw std::invalid_argument(text);
}

namespace {

bench_profile parse_profile(std::string_view text) {
  if (text == "default") return bench_profile::standard;
  if (text == "full") return bench_profile::full;
  if (text == "smoke") return bench_profile::smoke;
  throw std::invalid_argument(
      "handoff_bench: --handoff-profile needs default, full or smoke, got '" + std::string(text) +
      "'");
}

sampling_settings sampling_of(bench_profile profile) {
  switch (profile) {
    case bench_profile::full:
      return {.max_noise = 0.005,
              .min_samples = 20,
              .min_time_seconds = 0.25,
              .timeout_seconds = 3.0,
              .max_warmup_seconds = 0.5};
    case bench_profile::smoke:
      return {.max_noise = 0.05,
              .min_samples = 2,
              .min_time_seconds = 0.0,
              .timeout_seconds = 0.05,
              .max_warmup_seconds = 0.0};
    case bench_profile::standard:
      break;
  }
  return {};
}

planted_slowdown parse_planted_slowdown(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon + 1 == text.size()) {
    throw std::invalid_argument(
        "handoff_bench: --handoff-plant-slowdown needs PERCENT:REGEX, for example 5:^elementwise/, "
        "got '" +
        std::string(text) + "'");
  }
  planted_slowdown plant;
  plant.fraction =
      parse_number<double>("--handoff-plant-slowdown", text.substr(0, colon), 100.0) / 100.0;
  plant.rows_regex = std::string(text.substr(colon + 1));
  try {
    (void)std::regex(plant.rows_regex, std::regex::extended);
  } catch (const std::regex_error& error) {
    throw std::invalid_argument("handoff_bench: --handoff-plant-slowdown: bad regex '" +
                                plant.rows_regex + "': " + error.what());
  }
  return plant;
}

}  // namespace

std::string_view profile_name(bench_profile profile) {
  switch (profile) {
    case bench_profile::full:
      return "full";
    case bench_profile::smoke:
      return "smoke";
    case bench_profile::standard:
      break;
  }
  return "default";
}

std::string planted_slowdown::describe() const {
  if (!active()) return {};
  const double percent = fraction * 100.0;
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, percent).ptr;
  const char* alternated = "";
  if (alternation == plant_alternation::passes) alternated = " (even passes)";
  if (alternation == plant_alternation::samples) alternated = " (every second sample)";
  return std::string(text, end) + ":" + rows_regex + alternated;
}

bench_config parse_handoff_flags(int& argc, char** argv) {
  bench_config config;
  // Flags that override what the profile sets, applied after it whatever their order.
  std::optional<double> max_noise, min_time, timeout;
  std::optional<int> min_samples;
  auto alternation = plant_alternation::none;
  // The profile each flag asked for, to refuse two that disagree rather than take the last.
  std::optional<std::pair<std::string, bench_profile>> asked_profile;
  const auto ask_profile = [&](std::string_view flag, bench_profile profile) {
    if (asked_profile && asked_profile->second != profile) {
      throw std::invalid_argument("handoff_bench: " + asked_profile->first + " and " +
                                  std::string(flag) + " ask for two profiles; give one");
    }
    asked_profile.emplace(std::string(flag), profile);
    config.profile = profile;
  };
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const auto value_of = [&](std::string_view flag) { return argument.substr(flag.size()); };
    const auto seconds = [&](std::string_view flag) {
      return parse_number<double>(flag.substr(0, flag.size() - 1), value_of(flag),
                                  max_seconds_per_row);
    };
    if (argument == "--handoff-smoke") {
      ask_profile(argument, bench_profile::smoke);
    } else if (argument.starts_with("--handoff-profile=")) {
      ask_profile(argument, parse_profile(value_of("--handoff-profile=")));
    } else if (argument == "--handoff-plant-wrong-result") {
      config.plant_wrong_result = true;
    } else if (argument == "--handoff-list-families") {
      config.list_families = true;
    } else if (argument.starts_with("--handoff-list-as-gpus=")) {
      config.list_as_gpus =
          parse_count("--handoff-list-as-gpus", value_of("--handoff-list-as-gpus="), 64);
    } else if (argument.starts_with("--handoff-max-noise=")) {
      max_noise =
          parse_number<double>("--handoff-max-noise", value_of("--handoff-max-noise="), 100.0) /
          100.0;
    } else if (argument.starts_with("--handoff-min-samples=")) {
      min_samples =
          parse_number<int>("--handoff-min-samples", value_of("--handoff-min-samples="), 1'000'000);
    } else if (argument.starts_with("--handoff-min-time=")) {
      min_time = seconds("--handoff-min-time=");
    } else if (argument.starts_with("--handoff-timeout=")) {
      timeout = seconds("--handoff-timeout=");
    } else if (argument.starts_with("--handoff-max-elements=")) {
      config.max_elements = parse_number<std::uint64_t>(
          "--handoff-max-elements", value_of("--handoff-max-elements="), max_element_count);
    } else if (argument.starts_with("--handoff-axis=")) {
      add_axis_choice(config.axes, value_of("--handoff-axis="));
    } else if (argument.starts_with("--handoff-shuffle-families=")) {
      config.shuffle_seed = parse_number<std::uint64_t>("--handoff-shuffle-families",
                                                        value_of("--handoff-shuffle-families="),
                                                        std::numeric_limits<std::uint64_t>::max());
    } else if (argument.starts_with("--handoff-processes=")) {
      config.processes = parse_count("--handoff-processes", value_of("--handoff-processes="), 64);
    } else if (argument.starts_with("--handoff-passes=")) {
      config.passes = parse_number<int>("--handoff-passes", value_of("--handoff-passes="), 1000);
    } else if (argument == "--handoff-plant-alternate" ||
               argument == "--handoff-plant-alternate=passes") {
      alternation = plant_alternation::passes;
    } else if (argument == "--handoff-plant-alternate=samples") {
      alternation = plant_alternation::samples;
    } else if (argument.starts_with("--handoff-plant-slowdown=")) {
      config.plant = parse_planted_slowdown(value_of("--handoff-plant-slowdown="));
    } else if (argument.starts_with("--handoff-ceilings-from=")) {
      config.ceilings_from = std::string(value_of("--handoff-ceilings-from="));
      if (config.ceilings_from.empty()) {
        throw std::invalid_argument("handoff_bench: --handoff-ceilings-from needs a results file");
      }
    } else if (argument.starts_with("--benchmark_min_time")) {
      // Every row is one Google Benchmark iteration that samples until its noise target; Google
      // Benchmark's own minimum time would repeat that whole sampling.
      throw std::invalid_argument(
          "handoff_bench: --benchmark_min_time is not used: each row samples until its noise "
          "target; use --handoff-min-time, --handoff-timeout or --handoff-max-noise\n" +
          handoff_flags_help());
    } else if (argument.starts_with("--handoff-")) {
      throw std::invalid_argument("handoff_bench: unknown flag " + std::string(argument) + "\n" +
                                  handoff_flags_help());
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  if (alternation != plant_alternation::none && !config.plant.active()) {
    throw std::invalid_argument(
        "handoff_bench: --handoff-plant-alternate needs --handoff-plant-slowdown");
  }
  if (alternation == plant_alternation::passes && config.passes < 2) {
    throw std::invalid_argument(
        "handoff_bench: --handoff-plant-alternate=passes needs --handoff-passes of 2 or more");
  }
  config.plant.alternation = alternation;
  check_host_memory_for(config.max_elements, host_memory_bytes());
  check_axis_choices(config.axes, config.max_elements);
  config.smoke = config.profile == bench_profile::smoke;
  config.sampling = sampling_of(config.profile);
  // Each of several processes takes its share of the profile's time per row; explicit flags are
  // taken as they are given, per process.
  config.sampling.timeout_seconds /= config.processes;
  config.sampling.min_time_seconds /= config.processes;
  if (max_noise) config.sampling.max_noise = *max_noise;
  if (min_samples) config.sampling.min_samples = *min_samples;
  if (min_time) config.sampling.min_time_seconds = *min_time;
  if (timeout) config.sampling.timeout_seconds = *timeout;
  config.spin = transport::spin_turn_from_environment();  // a bad value fails before any row
  config.spin_length = transport::spin_length_from_environment();
  return config;
}

std::string handoff_flags_help() {
  return "handoff flags:\n"
         "  --handoff-profile=NAME       default: every variant at its default size plus a short\n"
         "                               size sweep (one process of ci/bench's three: about "
         "5 minutes on one H200);\n"
         "                               full: every point of every sweep; smoke: as "
         "--handoff-smoke\n"
         "  --handoff-smoke              the one-minute check: every family once, at a tiny size\n"
         "  --handoff-max-noise=PERCENT  noise target per row: the half-width of the median's 95%\n"
         "                               interval, relative (default 1; full: 0.5)\n"
         "  --handoff-min-samples=N      samples per row at least (default 10; full: 20)\n"
         "  --handoff-min-time=SECONDS   timed seconds per row at least (default 0.1; full: 0.25)\n"
         "  --handoff-timeout=SECONDS    a row stops sampling after this long and is marked noisy\n"
         "                               if it is above its target (default 1; full: 3)\n"
         "  --handoff-max-elements=N     largest element count on the element axes (default 2^28)\n"
         "  --handoff-axis=NAME:V1,V2,... measure these values of a size axis (a count, or 2^K)\n"
         "                               in place of the profile's; repeat for other axes:\n" +
         settable_axes_help() +
         "  --handoff-shuffle-families=SEED  run the families (after the ceilings) in an order\n"
         "                               drawn from SEED\n"
         "  --handoff-passes=N           time every selected row N times, one pass after another,\n"
         "                               in this process; each pass is a repetition in the\n"
         "                               results (default 1)\n"
         "  --handoff-processes=N        this process is one of N separate ones measuring the\n"
         "                               same rows (ci/bench runs 3): each row's time cap, "
         "minimum\n"
         "                               time and cold samples are shared among them (default 1)\n"
         "  --handoff-ceilings-from=FILE reuse the ceilings of an earlier results file of this\n"
         "                               machine (matched by the manifest) when the filter "
         "selects\n"
         "                               no ceiling; without it, such a run measures the ones its\n"
         "                               rows need after them\n"
         "  --handoff-plant-slowdown=PERCENT:REGEX  test hook: rows matching REGEX run PERCENT\n"
         "                               slower, by a calibrated delay inside the timed region\n"
         "  --handoff-plant-alternate[=passes|samples]  test hook, for compare --paired:\n"
         "                               passes (the default) plants the slowdown in the even\n"
         "                               passes only; samples takes every row's samples in pairs,\n"
         "                               plain then planted, and writes each pass as two\n"
         "                               repetitions, the plain samples' and the planted ones'\n"
         "  --handoff-list-families      which families this machine runs or skips, and why, and "
         "the\n"
         "                               multi-GPU workloads built in (HANDOFF_USER_KERNELS)\n"
         "  --handoff-list-as-gpus=N     with --benchmark_list_tests or --handoff-list-families:\n"
         "                               list as a machine with N GPUs would, every family\n"
         "                               available (a machine's own checks, such as peer access,\n"
         "                               are not asked)\n"
         "  --handoff-plant-wrong-result add selftest/planted_wrong_result, which must fail\n";
}

namespace {
int pass_now = 1;
}  // namespace

int current_pass() noexcept {
  return pass_now;
}

void set_current_pass(int pass) noexcept {
  pass_now = pass;
}

}  // namespace handoff::bench
