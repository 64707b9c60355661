#pragma once
// What handoff_bench was asked to do, beyond Google Benchmark's own flags: the profile (which
// points the families sweep), how each row samples (sampling_settings), and the test hooks.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "axis_choice.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/sweep_settings.hpp"
#include "handoff/transport/fd_io.hpp"

namespace handoff::bench {

// 2^32 floats is 16 GiB per buffer: beyond it the element axes would not fit in host memory.
inline constexpr std::uint64_t max_element_count = std::uint64_t{1} << 32;
inline constexpr double max_seconds_per_row = 3600.0;

// default: every pattern and variant at its default point plus a short size sweep, sized to finish
// within 10 minutes on one H200. full: every point of every sweep. smoke: every family once, at a
// tiny size, with few samples (the one-minute check). The patterns' sweeps choose their points by
// it, so it is theirs.
using bench_profile = patterns::sweep_profile;

std::string_view profile_name(bench_profile profile);

// When a row stops sampling, after its warm-up: once it has min_samples samples, min_time_seconds
// of timed runs, and the relative half-width of its median's 95% interval is at most max_noise; or
// when timeout_seconds have passed since its sampling began, whatever its noise (it is then marked
// noisy). As nvbench's stopping criterion, with a cap sized to the profile. The default cap is
// short because a row that has not reached its target by then (a CPU or worker row) moves more
// between processes than its samples inside one can show: its time is better spent on processes.
struct sampling_settings {
  double max_noise = 0.01;
  int min_samples = 10;
  double min_time_seconds = 0.1;
  double timeout_seconds = 1.0;
  // Warm-up stops when two consecutive batches agree, or after this long.
  double max_warmup_seconds = 0.2;
};

// Where a planted slowdown alternates with plain runs of the same row, for compare --paired:
// - passes: planted in the even passes of a run of several, each planted pass following a plain
//   one within seconds;
// - samples: every row takes its samples in pairs, plain then planted (no delay on the rows the
//   regex leaves out, which then serve as an A/A check), and each pass is written twice, its plain
//   samples as an odd repetition and its planted samples as the even one after it. A pair's two
//   samples are milliseconds apart, so the machine's speed, which on a shared host wanders by tens
//   of percent from one second to the next, is the same for both.
enum class plant_alternation { none, passes, samples };

// A test hook: rows whose name matches rows_regex run fraction slower, by a calibrated delay inside
// the timed region, so that compare's power to see a slowdown can be shown. Off unless asked for.
struct planted_slowdown {
  double fraction = 0.0;
  std::string rows_regex;
  plant_alternation alternation = plant_alternation::none;
  bool active() const noexcept { return fraction > 0.0; }
  // "PERCENT:REGEX" as given, or empty when off.
  std::string describe() const;
};

struct bench_config {
  bench_profile profile = bench_profile::standard;
  bool smoke = false;          // profile == smoke, kept for the families' point choice
  bool list_families = false;  // print which families this machine runs or skips, then exit
  // Lists (--benchmark_list_tests, --handoff-list-families) as on a machine with this many GPUs
  // that every family can use, so that the rows of every machine can be listed from any; 0: this
  // machine's.
  int list_as_gpus = 0;
  bool plant_wrong_result = false;  // add a benchmark whose result is wrong, to test the harness
  sampling_settings sampling;
  std::uint64_t max_elements = std::uint64_t{1} << 28;
  // Runs the families (not the ceilings, which always come first) in an order drawn from this
  // seed: ci/nightly's passes are separate runs, each in its own random order, so that no family
  // always follows the same neighbour. 0 keeps the registration order.
  std::uint64_t shuffle_seed = 0;
  planted_slowdown plant;
  // An earlier results file of this machine whose ceilings a run without ceiling rows reuses.
  std::string ceilings_from;
  // The user's own values for size axes (--handoff-axis), in place of the profile's sweep.
  axis_choices axes;
  // Times every selected row this many times, one pass over them after another, in one process.
  // Outside load on a shared machine comes in bursts of seconds that slow one row's whole
  // sampling; passes a minute apart put a row's measurements in separate bursts, so that the
  // median over passes, and its interval, see them (compare_stats.py).
  int passes = 1;
  // This process is one of this many that measure the same rows (ci/bench runs several, since a
  // row's figure moves between processes by far more than between samples inside one): the
  // profile's per-row sampling budget and its cold rows' fixed sample counts are shared among them.
  int processes = 1;
  // How a waiting reader's spin offers the core (HANDOFF_SPIN), recorded with the settings; the
  // transport and the workers read the same variable themselves.
  transport::spin_turn spin = transport::spin_turn::yield;
  // How long that reader spins before it sleeps (HANDOFF_SPIN_US), recorded the same way.
  std::chrono::microseconds spin_length = transport::spin_before_sleeping;
  // Fixed sample counts (cold rows) shared among the processes: this one's share, at least 1.
  int fixed_samples_here(int fixed_samples) const noexcept {
    return fixed_samples <= 0 ? fixed_samples : (fixed_samples + processes - 1) / processes;
  }
};

struct bench_environment {
  bench_config config;
  gpu_count_result gpus;
};

// What the patterns' sweeps read of this run: its profile, element cap and chosen axes, and the
// GPUs its families span.
patterns::sweep_settings sweep_settings_of(const bench_environment& environment);

// A whole number in [1, most] given to flag; std::invalid_argument naming the flag, the range
// and the text otherwise, as every numeric handoff flag is checked.
int parse_count(std::string_view flag, std::string_view text, int most);

// Removes the --handoff-* flags it understands from argv; throws std::invalid_argument on a bad
// one. The profile sets the defaults; explicit flags win wherever they stand on the line.
bench_config parse_handoff_flags(int& argc, char** argv);

std::string handoff_flags_help();

// Throws std::invalid_argument, naming both sizes, when the element cap's largest rows would not
// fit in host_bytes of host memory (host_memory_bytes(): this machine's).
void check_host_memory_for(std::uint64_t max_elements, double host_bytes);
double host_memory_bytes() noexcept;

// The pass (1-based) the run is in, for code that has no environment at hand.
int current_pass() noexcept;
void set_current_pass(int pass) noexcept;

}  // namespace handoff::bench
