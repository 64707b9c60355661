#pragma once
// Sets each benchmark against the ceilings measured in the same run. The console reporter collects
// the runs; after the last one it prints each ceiling and each benchmark's floor and efficiency
// (floor time over measured time). An efficiency above 100% means the ceiling or the floor is
// wrong, so it is flagged SUSPECT, never shown as a success.

#include <benchmark/benchmark.h>

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace handoff::bench {

struct measured_run {
  std::string name;
  double seconds_per_iteration = 0.0;
  std::map<std::string, double> counters;
};

struct ceiling_value {
  bool is_latency = false;
  double value = 0.0;  // bytes per second, or seconds per event: the best of its sweep
  // A bandwidth ceiling's rate at each size it was measured at (bytes per run, bytes per
  // second), by size. A floor prices bytes at the best rate measured at the largest size not above
  // them or any larger one, never at a smaller size's: a one-thread memcpy's best came from 1 MiB,
  // where it runs in cache far faster than from memory, and it priced the 84 MB that
  // queued_worker copies out of cache. Empty for latencies and for ceilings read from a file
  // without a sweep: those price at value. (figures: docs/design/measured-along-the-way.md,
  // "Bandwidth ceilings priced by size")
  std::vector<std::pair<double, double>> rate_by_bytes;

  // Bytes per second for a transfer of bytes, as above, or value.
  double rate_for(double bytes) const;
};

// One term of a floor, as it was priced: bytes over a bandwidth ceiling at the rate for that size,
// events at a latency ceiling, or seconds of a stage measured in the same run.
struct floor_term {
  enum class kind { bytes, events, seconds };
  kind what = kind::bytes;
  std::string name;     // the ceiling, or the measured stage
  double amount = 0.0;  // bytes, events or seconds per iteration
  double figure = 0.0;  // bytes per second, or seconds per event; 0 for a measured stage
  double seconds = 0.0;
};

struct efficiency_row {
  std::string name;
  double measured_seconds = 0.0;
  std::optional<double> floor_seconds;  // empty when a ceiling it needs was not measured
  std::string missing_ceiling;
  std::vector<floor_term> terms;  // what the floor is made of
  bool overlapped = false;        // the floor is the slowest term, not their sum
  // The slow end of the row's interval (its ci_high); empty where it has none.
  std::optional<double> slowest_seconds;
  double efficiency() const { return floor_seconds ? *floor_seconds / measured_seconds : 0.0; }
  // Faster than its floor even at the slow end of its interval: a row whose interval reaches its
  // floor is within its noise of it.
  bool suspect() const {
    return floor_seconds && *floor_seconds > slowest_seconds.value_or(measured_seconds);
  }
};

// "ceilings/pcie_h2d_pinned/manual_time" -> "pcie_h2d_pinned"; empty for other benchmarks.
std::string ceiling_name_of(const std::string& benchmark_name);

// Each name once, with its median repetition (by seconds per iteration), ordered by name.
std::vector<measured_run> medians_by_name(const std::vector<measured_run>& runs);

// The median over repetitions of each name, then the ceilings and the rows.
std::map<std::string, ceiling_value> ceilings_from(const std::vector<measured_run>& runs);
std::vector<efficiency_row> efficiencies_from(const std::vector<measured_run>& runs,
                                              const std::map<std::string, ceiling_value>& ceilings);

// The ceilings, each benchmark's efficiency, then scaling against one GPU (scaling_summary.hpp).
// A process that is one of several (`processes` > 1) prices its rows from its own ceilings, which
// move between processes as rows do, so a row above one of them is only pointed out: whether it
// is SUSPECT is decided once the processes are merged, from all their ceilings.
void print_summary(std::ostream& out, const std::vector<measured_run>& runs, int processes = 1);

// Google Benchmark 1.8 replaced Run::error_occurred with Run::skipped; ask the type which it has.
template <class Run>
bool run_failed(const Run& run) {
  if constexpr (requires { run.skipped; }) {
    return static_cast<bool>(run.skipped);
  } else {
    return run.error_occurred;
  }
}

class summarising_reporter : public benchmark::ConsoleReporter {
 public:
  using benchmark::ConsoleReporter::ConsoleReporter;
  void ReportRuns(const std::vector<Run>& reports) override;
  void Finalize() override;
  const std::vector<measured_run>& runs() const noexcept { return runs_; }

 protected:
  void set_processes(int processes) noexcept { processes_ = processes; }
  // The console's own table (console_rows.hpp) in place of Google Benchmark's.
  void PrintHeader(const Run& run) override;
  void PrintRunData(const Run& run) override;
  // Keeps the verified rows for the summary, without printing them, and whether any row failed.
  void collect(const std::vector<Run>& reports);
  // The summary (print_summary), then where the run's headline table comes from.
  void print_end_of_run(std::ostream& out) const;

 private:
  std::vector<measured_run> runs_;
  bool any_failed_ = false;  // a benchmark errored or was wrong in a repetition
  int processes_ = 1;        // how many processes measure these rows, this one among them
};

}  // namespace handoff::bench
