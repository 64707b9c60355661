#include "scaling_summary.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <map>
#include <string_view>
#include <utility>

namespace handoff::bench {
namespace {

constexpr std::string_view gpus_key = "gpus:";

struct gpus_segment {
  int gpus = 0;
  std::size_t offset = 0;  // where "gpus:N" starts in the name
  std::size_t length = 0;
};

std::optional<int> parse_gpu_count(std::string_view digits) {
  // A leading zero would let "gpus:01" pose as a second spelling of the gpus:1 baseline.
  if (digits.empty() || digits.front() == '0') return std::nullopt;
  int count = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  const bool whole = error == std::errc() && end == digits.data() + digits.size();
  if (!whole || count < 1) return std::nullopt;
  return count;
}

std::optional<gpus_segment> find_gpus_segment(std::string_view name) {
  std::optional<gpus_segment> found;
  bool seen = false;
  for (std::size_t begin = 0; begin <= name.size();) {
    const std::size_t slash = name.find('/', begin);
    const std::size_t end = slash == std::string_view::npos ? name.size() : slash;
    const std::string_view segment = name.substr(begin, end - begin);
    if (segment.starts_with(gpus_key)) {
      if (seen) return std::nullopt;
      seen = true;
      if (const auto gpus = parse_gpu_count(segment.substr(gpus_key.size()))) {
        found = gpus_segment{*gpus, begin, segment.size()};
      }
    }
    begin = end + 1;
  }
  return found;
}

std::optional<std::string> with_even_partitioner(std::string_view name) {
  constexpr std::string_view key = "/partitioner:";
  const std::size_t begin = name.find(key);
  if (begin == std::string_view::npos) return std::nullopt;
  const std::size_t value = begin + key.size();
  const std::size_t end = std::min(name.find('/', value), name.size());
  if (name.substr(value, end - value) == "even") return std::nullopt;
  std::string even(name);
  even.replace(value, end - value, "even");
  return even;
}

// A benchmark with a gpus axis, with its baseline's median when the baseline ran.
struct scaling_candidate {
  std::string name;
  int gpus = 0;
  std::string baseline_name;
  double measured_seconds = 0.0;
  std::optional<double> baseline_seconds;
};

std::vector<scaling_candidate> scaling_candidates(const std::vector<measured_run>& runs) {
  const auto medians = medians_by_name(runs);
  std::map<std::string, double> seconds_by_name;
  for (const auto& run : medians)
    seconds_by_name[run.name] = run.seconds_per_iteration;
  std::vector<scaling_candidate> candidates;
  for (const auto& run : medians) {
    const auto segment = find_gpus_segment(run.name);
    if (!segment || run.seconds_per_iteration <= 0.0) continue;
    scaling_candidate candidate{run.name, segment->gpus, run.name, run.seconds_per_iteration, {}};
    candidate.baseline_name.replace(segment->offset, segment->length, std::string(gpus_key) + "1");
    auto baseline = seconds_by_name.find(candidate.baseline_name);
    if (baseline == seconds_by_name.end()) {
      // One GPU holds the whole array whatever the partitioner, so the profiles measure gpus:1
      // with the even plan only, and every partitioner scales against it.
      if (auto even = with_even_partitioner(candidate.baseline_name)) {
        if (const auto found = seconds_by_name.find(*even); found != seconds_by_name.end()) {
          candidate.baseline_name = std::move(*even);
          baseline = found;
        }
      }
    }
    if (baseline != seconds_by_name.end() && baseline->second > 0.0) {
      candidate.baseline_seconds = baseline->second;
    }
    candidates.push_back(std::move(candidate));
  }
  // The baseline's name is the configuration without its GPU count, so ordering by it and then by
  // the count puts each configuration's 1..N rows together.
  std::ranges::sort(candidates, {}, [](const scaling_candidate& candidate) {
    return std::pair(std::string_view(candidate.baseline_name), candidate.gpus);
  });
  return candidates;
}

std::string padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

}  // namespace

std::optional<int> gpus_axis_of(const std::string& name) {
  const auto segment = find_gpus_segment(name);
  if (!segment) return std::nullopt;
  return segment->gpus;
}

std::vector<scaling_row> scaling_from(const std::vector<measured_run>& runs) {
  std::vector<scaling_row> rows;
  for (auto& candidate : scaling_candidates(runs)) {
    if (!candidate.baseline_seconds) continue;
    rows.push_back({std::move(candidate.name), candidate.gpus, std::move(candidate.baseline_name),
                    candidate.measured_seconds, *candidate.baseline_seconds});
  }
  return rows;
}

void print_scaling(std::ostream& out, const std::vector<measured_run>& runs) {
  auto candidates = scaling_candidates(runs);
  if (candidates.empty()) return;
  // A gpus:1 row is its own baseline: its 1.00x says nothing.
  std::erase_if(candidates, [](const scaling_candidate& candidate) { return candidate.gpus < 2; });
  if (candidates.empty()) {
    out << "\nScaling against one GPU: needs rows at two or more GPUs; this run measured one\n";
    return;
  }
  // Multi-GPU names run past the efficiency section's 64 columns; align on the longest instead.
  std::size_t width = 64;
  for (const auto& candidate : candidates)
    width = std::max(width, candidate.name.size());
  out << "\nScaling against one GPU: speedup = T(1 GPU) / T(N GPUs), efficiency = speedup / N\n";
  for (const auto& candidate : candidates) {
    char figures[160];
    if (!candidate.baseline_seconds) {
      std::snprintf(figures, sizeof(figures), " %12.3f us   n/a (its gpus:1 row did not run)\n",
                    candidate.measured_seconds * 1e6);
    } else {
      const scaling_row row{candidate.name, candidate.gpus, candidate.baseline_name,
                            candidate.measured_seconds, *candidate.baseline_seconds};
      std::snprintf(figures, sizeof(figures), " %12.3f us   speedup %7.2fx   efficiency %6.1f%%\n",
                    row.measured_seconds * 1e6, row.speedup(), row.efficiency() * 100.0);
    }
    out << "  " << padded(candidate.name, width) << figures;
  }
}

}  // namespace handoff::bench
