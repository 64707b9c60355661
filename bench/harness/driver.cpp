#include "driver.hpp"

#include <map>
#include <set>

namespace handoff::bench {
namespace {

struct noted_table {
  std::string pattern;
  std::vector<std::pair<std::string, bool>> rows;  // name, needs a GPU to have a row
  std::set<std::string, std::less<>> registered;
};

// Keyed by the table itself: one pattern may have several (a table per workload family).
std::map<const void*, noted_table>& noted_tables() {
  static std::map<const void*, noted_table> tables;
  return tables;
}

}  // namespace

void note_registered(const void* table_identity, std::string_view pattern, std::string_view variant,
                     const std::vector<std::pair<std::string_view, bool>>& table_rows) {
  auto& table = noted_tables()[table_identity];
  if (table.rows.empty()) {
    table.pattern = pattern;
    for (const auto& [name, needs_gpu] : table_rows)
      table.rows.emplace_back(std::string(name), needs_gpu);
  }
  table.registered.emplace(variant);
}

std::vector<std::string> variants_without_rows(bool machine_has_gpu) {
  std::vector<std::string> missing;
  for (const auto& [identity, table] : noted_tables()) {
    for (const auto& [name, needs_gpu] : table.rows) {
      if (needs_gpu && !machine_has_gpu) continue;
      if (!table.registered.contains(name)) missing.push_back(table.pattern + "/" + name);
    }
  }
  return missing;
}

void set_figures(benchmark::State& state, const std::vector<patterns::named_figure>& figures) {
  for (const auto& figure : figures)
    state.counters[figure.name] = figure.value;
}

void set_floor(benchmark::State& state, const patterns::floor_terms& floor) {
  for (const auto& [ceiling, bytes] : floor.bytes)
    add_floor_bytes(state, ceiling, bytes);
  for (const auto& [ceiling, events] : floor.events)
    add_floor_events(state, ceiling, events);
  for (const auto& [stage, seconds] : floor.seconds)
    add_floor_seconds(state, stage, seconds);
  if (floor.overlapped) set_floor_overlapped(state);
}

}  // namespace handoff::bench
