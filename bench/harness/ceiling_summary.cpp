#include "ceiling_summary.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <ranges>
#include <string_view>
#include <utility>

#include "ceiling_source.hpp"
#include "console_rows.hpp"
#include "floor_model.hpp"
#include "scaling_summary.hpp"
#include "traffic.hpp"

namespace handoff::bench {
namespace {

constexpr std::string_view ceilings_prefix = "ceilings/";

std::string format_ceiling(const ceiling_value& ceiling) {
  char text[64];
  if (ceiling.is_latency) {
    std::snprintf(text, sizeof(text), "%10.2f us", ceiling.value * 1e6);
  } else {
    std::snprintf(text, sizeof(text), "%10.2f GB/s", ceiling.value * 1e-9);
  }
  return text;
}

// A ceiling is the best the machine did, as STREAM reports its best trial: its quickest sample, not
// its median, so that a row sampled a moment later, when the bus or the memory ran a little faster,
// does not read above it. A row measured without samples of its own keeps its median.
double best_seconds_of(const measured_run& run) {
  const auto fastest = run.counters.find("fastest_seconds");
  return fastest != run.counters.end() && fastest->second > 0.0 ? fastest->second
                                                                : run.seconds_per_iteration;
}

}  // namespace

// Repetitions of one benchmark collapse to their median, so one noisy repetition moves nothing.
std::vector<measured_run> medians_by_name(const std::vector<measured_run>& runs) {
  std::map<std::string, std::vector<const measured_run*>> by_name;
  for (const auto& run : runs)
    by_name[run.name].push_back(&run);
  std::vector<measured_run> medians;
  for (auto& [name, group] : by_name) {
    std::ranges::sort(group, {}, &measured_run::seconds_per_iteration);
    medians.push_back(*group[group.size() / 2]);
  }
  return medians;
}

std::string ceiling_name_of(const std::string& benchmark_name) {
  if (!benchmark_name.starts_with(ceilings_prefix)) return {};
  const std::string rest = benchmark_name.substr(ceilings_prefix.size());
  return rest.substr(0, rest.find('/'));
}

double ceiling_value::rate_for(double bytes) const {
  // The sizes below the largest one measured at or under bytes may have run in cache; every size
  // from it up is fair, and the best of them keeps the floor as strict as the data allows.
  const auto first_fair = std::ranges::find_if(
      rate_by_bytes, [bytes](const auto& measured) { return measured.first > bytes; });
  const auto from = first_fair == rate_by_bytes.begin() ? first_fair : std::prev(first_fair);
  if (from == rate_by_bytes.end()) return value;
  return std::ranges::max(std::ranges::subrange(from, rate_by_bytes.end()), {},
                          &std::pair<double, double>::second)
      .second;
}

// A ceiling measured over a sweep (sizes, methods) is the best figure of the sweep; a bandwidth
// ceiling also keeps the best rate at each size, for pricing (ceiling_value::rate_by_bytes).
std::map<std::string, ceiling_value> ceilings_from(const std::vector<measured_run>& runs) {
  std::map<std::string, ceiling_value> ceilings;
  const auto keep_best = [&](const std::string& name, ceiling_value candidate) {
    const auto [found, inserted] = ceilings.try_emplace(name, candidate);
    const bool better = candidate.is_latency ? candidate.value < found->second.value
                                             : candidate.value > found->second.value;
    if (!inserted && better) found->second.value = candidate.value;
    return &found->second;
  };
  const auto keep_size = [](ceiling_value& ceiling, double bytes, double rate) {
    auto& sweep = ceiling.rate_by_bytes;
    const auto same = std::ranges::find(sweep, bytes, &std::pair<double, double>::first);
    if (same == sweep.end()) {
      sweep.emplace_back(bytes, rate);
      std::ranges::sort(sweep);
    } else {
      same->second = std::max(same->second, rate);  // another method at this size
    }
  };
  for (const auto& run : medians_by_name(runs)) {
    const std::string name = ceiling_name_of(run.name);
    const double seconds = best_seconds_of(run);
    if (name.empty() || seconds <= 0.0) continue;
    if (auto events = run.counters.find("events"); events != run.counters.end()) {
      keep_best(name, {true, seconds / events->second, {}});
    } else if (auto bytes = run.counters.find("bytes"); bytes != run.counters.end()) {
      const double rate = bytes->second / seconds;
      auto* ceiling = keep_best(name, {false, rate, {}});
      if (!ceiling->is_latency) keep_size(*ceiling, bytes->second, rate);
    }
  }
  return ceilings;
}

std::vector<efficiency_row> efficiencies_from(
    const std::vector<measured_run>& runs, const std::map<std::string, ceiling_value>& ceilings) {
  std::vector<efficiency_row> rows;
  for (const auto& run : medians_by_name(runs)) {
    efficiency_row row;
    row.name = run.name;
    row.measured_seconds = run.seconds_per_iteration;
    row.floor_seconds = 0.0;
    if (const auto high = run.counters.find("ci_high");
        high != run.counters.end() && high->second > 0)
      row.slowest_seconds = high->second;
    bool has_floor = false;
    const auto overlap = run.counters.find(std::string(floor_overlapped_counter));
    const bool overlapped = overlap != run.counters.end() && overlap->second > 0;
    row.overlapped = overlapped;
    const auto add_stage = [&](floor_term term) {
      *row.floor_seconds = overlapped ? std::max(*row.floor_seconds, term.seconds)
                                      : *row.floor_seconds + term.seconds;
      row.terms.push_back(std::move(term));
    };
    for (const auto& [counter, value] : run.counters) {
      if (counter.starts_with(floor_seconds_prefix)) {
        has_floor = true;
        if (row.floor_seconds) {
          add_stage({floor_term::kind::seconds, counter.substr(floor_seconds_prefix.size()), value,
                     0.0, value});
        }
        continue;
      }
      const bool is_bytes = counter.starts_with(floor_bytes_prefix);
      const bool is_events = counter.starts_with(floor_events_prefix);
      if (!is_bytes && !is_events) continue;
      has_floor = true;
      const std::string ceiling =
          counter.substr((is_bytes ? floor_bytes_prefix : floor_events_prefix).size());
      const auto found = ceilings.find(ceiling);
      if (found == ceilings.end() || found->second.is_latency == is_bytes) {
        row.missing_ceiling = ceiling;
        row.floor_seconds.reset();
        break;
      }
      if (is_bytes) {
        const double rate = found->second.rate_for(value);
        add_stage({floor_term::kind::bytes, ceiling, value, rate, value / rate});
      } else {
        add_stage({floor_term::kind::events, ceiling, value, found->second.value,
                   value * found->second.value});
      }
    }
    if (has_floor) rows.push_back(row);
  }
  return rows;
}

namespace {

std::string_view above_ceiling_note(int processes) {
  return processes > 1 ? "   above this process's ceilings: SUSPECT or not once merged"
                       : "   SUSPECT: above the ceiling";
}

void print_efficiency(std::ostream& out, const std::vector<measured_run>& runs, int processes) {
  const auto ceilings = ceilings_for_this_run(runs);
  const auto rows = efficiencies_from(runs, ceilings);
  if (ceilings.empty() && rows.empty()) return;
  out << "\nCeilings " << active_ceilings_source().note() << "\n";
  for (const auto& [name, ceiling] : ceilings) {
    char line[160];
    std::snprintf(line, sizeof(line), "  %-32s %s\n", name.c_str(),
                  format_ceiling(ceiling).c_str());
    out << line;
  }
  out << "\nEfficiency: floor from these ceilings / measured time\n";
  if (rows.empty()) out << "  (no benchmark in this run declares a floor)\n";
  for (const auto& row : rows) {
    char line[512];
    if (!row.floor_seconds) {
      std::snprintf(line, sizeof(line),
                    "  %-64s %12.3f us   n/a (ceiling %s not measured in this run)\n",
                    row.name.c_str(), row.measured_seconds * 1e6, row.missing_ceiling.c_str());
    } else {
      std::snprintf(line, sizeof(line), "  %-64s %12.3f us   floor %12.3f us   %6.1f%%%s\n",
                    row.name.c_str(), row.measured_seconds * 1e6, *row.floor_seconds * 1e6,
                    row.efficiency() * 100.0,
                    row.suspect() ? above_ceiling_note(processes).data() : "");
    }
    out << line;
    if (row.floor_seconds) out << "      floor: " << describe_floor(row) << "\n";
  }
}

}  // namespace

void print_summary(std::ostream& out, const std::vector<measured_run>& runs, int processes) {
  print_efficiency(out, runs, processes);
  print_scaling(out, runs);
  out.flush();
}

void summarising_reporter::ReportRuns(const std::vector<Run>& reports) {
  benchmark::ConsoleReporter::ReportRuns(reports);
  collect(reports);
}

void summarising_reporter::PrintHeader(const Run&) {
  GetOutputStream() << console_header(name_field_width_);
}

void summarising_reporter::PrintRunData(const Run& run) {
  GetOutputStream() << console_row(run, name_field_width_);
}

void summarising_reporter::collect(const std::vector<Run>& reports) {
  for (const auto& run : reports) {
    if (run.run_type != Run::RT_Iteration) continue;
    const bool wrong = run.counters.contains("wrong") && run.counters.at("wrong").value != 0.0;
    if (run_failed(run) || wrong) {
      any_failed_ = true;
      continue;
    }
    if (run.iterations <= 0) continue;
    measured_run measured{
        run.benchmark_name(), run.real_accumulated_time / static_cast<double>(run.iterations), {}};
    for (const auto& [name, counter] : run.counters)
      measured.counters[name] = counter.value;
    runs_.push_back(std::move(measured));
  }
}

void summarising_reporter::Finalize() {
  benchmark::ConsoleReporter::Finalize();
  print_end_of_run(GetOutputStream());
}

void summarising_reporter::print_end_of_run(std::ostream& out) const {
  print_summary(out, runs_, processes_);
  // The headline's rules live in the report package alone (docs/design/headline.md), and a run of
  // several processes has its headline only once they are merged.
  if (!runs_.empty() || any_failed_) {
    out << "\nHeadline: .venv/bin/python -m handoff_reports headline RESULTS.json "
           "(ci/bench prints it for the whole run)\n";
  }
}

}  // namespace handoff::bench
