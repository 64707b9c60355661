#include "ceiling_source.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <utility>

#include "bounded_json.hpp"
#include "traffic.hpp"

namespace handoff::bench {
namespace {

ceilings_source& mutable_source() {
  static ceilings_source source;
  return source;
}

// The manifest entries that name the machine, not the build or the run.
bool describes_machine(const std::string& key) {
  return key.starts_with("gpu") || key.starts_with("cpu_model") || key == "cpu_cores" ||
         key == "driver_version" || key == "peer_topology";
}

nlohmann::json read_json(const std::string& path) {
  constexpr std::string_view flag = "handoff_bench: --handoff-ceilings-from";
  return parse_bounded_json(read_bounded_file(path, flag), std::string(flag) + ": " + path);
}

}  // namespace

std::string ceilings_source::note() const {
  if (kind == "reused") {
    return "reused from " + file + " (measured " + measured_at +
           "), matched to this machine by the manifest";
  }
  return "measured in this run";
}

const ceilings_source& active_ceilings_source() noexcept {
  return mutable_source();
}

void reuse_ceilings_from(const std::string& path,
                         const std::map<std::string, std::string>& manifest) {
  const auto earlier = read_json(path);
  const auto& context = earlier.contains("context") ? earlier["context"] : nlohmann::json::object();
  for (const auto& [key, value] : manifest) {
    if (!describes_machine(key)) continue;
    const auto theirs = context.find("handoff_" + key);
    if (theirs == context.end() || !theirs->is_string() || theirs->get<std::string>() != value) {
      throw std::invalid_argument(
          "handoff_bench: --handoff-ceilings-from: " + path + " is from another machine: its " +
          key + " is '" +
          (theirs != context.end() && theirs->is_string() ? theirs->get<std::string>() : "absent") +
          "', this machine's is '" + value + "'");
    }
  }
  const auto ceilings = earlier.find("handoff_ceilings");
  if (ceilings == earlier.end() || !ceilings->is_object() || ceilings->empty()) {
    throw std::invalid_argument("handoff_bench: --handoff-ceilings-from: " + path +
                                " holds no measured ceilings");
  }
  ceilings_source source;
  source.kind = "reused";
  source.file = path;
  source.measured_at = context.value("date", "an unknown date");
  for (const auto& [name, entry] : ceilings->items()) {
    const double value = entry.value("value", 0.0);
    if (!(value > 0.0)) continue;
    ceiling_value reused{entry.value("unit", "") == "seconds", value, {}};
    // Older files have no sweep; a malformed one is ignored rather than half read.
    if (const auto sweep = entry.find("rate_by_bytes"); sweep != entry.end() && sweep->is_array()) {
      for (const auto& point : *sweep) {
        if (!point.is_array() || point.size() != 2 || !point[0].is_number() ||
            !point[1].is_number() || !(point[0].get<double>() > 0.0) ||
            !(point[1].get<double>() > 0.0)) {
          reused.rate_by_bytes.clear();
          break;
        }
        reused.rate_by_bytes.emplace_back(point[0].get<double>(), point[1].get<double>());
      }
    }
    source.reused[name] = std::move(reused);
  }
  mutable_source() = std::move(source);
}

namespace {

// A run that measures some sizes of a reused ceiling again (the further processes measure again
// the ceiling rows that spread) keeps the reused rates at the sizes it did not: without them, a
// size it skipped would be priced at the smaller size below it, which may have run in cache.
void add_sizes_not_measured(ceiling_value& measured, const ceiling_value& reused) {
  auto& sweep = measured.rate_by_bytes;
  for (const auto& [bytes, rate] : reused.rate_by_bytes) {
    if (std::ranges::find(sweep, bytes, &std::pair<double, double>::first) == sweep.end())
      sweep.emplace_back(bytes, rate);
  }
  std::ranges::sort(sweep);
}

}  // namespace

void forget_reused_ceilings() {
  mutable_source() = {};
}

std::map<std::string, ceiling_value> ceilings_for_this_run(const std::vector<measured_run>& runs) {
  auto ceilings = ceilings_from(runs);
  for (const auto& [name, reused] : active_ceilings_source().reused) {
    const auto [found, inserted] = ceilings.try_emplace(name, reused);
    if (!inserted) add_sizes_not_measured(found->second, reused);
  }
  return ceilings;
}

std::vector<std::string> ceilings_still_needed(const std::vector<measured_run>& runs) {
  const auto known = ceilings_for_this_run(runs);
  std::set<std::string> needed;
  for (const auto& run : runs) {
    for (const auto& [counter, value] : run.counters) {
      for (const std::string_view prefix : {floor_bytes_prefix, floor_events_prefix}) {
        if (!counter.starts_with(prefix)) continue;
        const std::string ceiling = counter.substr(prefix.size());
        if (!known.contains(ceiling)) needed.insert(ceiling);
      }
    }
  }
  return {needed.begin(), needed.end()};
}

}  // namespace handoff::bench
