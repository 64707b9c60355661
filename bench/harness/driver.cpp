#include "driver.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace handoff::bench {
namespace {

struct noted_table {
  std::size_t order = 0;  // when its first row was registered
  std::string pattern;
  std::vector<noted_row> rows;  // views of the table's own constant strings
  std::set<std::string, std::less<>> registered;
};

// Keyed by the table itself: one pattern may have several (a table per workload family).
std::map<const void*, noted_table>& noted_tables() {
  static std::map<const void*, noted_table> tables;
  return tables;
}

std::vector<const noted_table*> in_registration_order() {
  std::vector<const noted_table*> tables;
  for (const auto& [identity, table] : noted_tables())
    tables.push_back(&table);
  std::ranges::sort(tables, {}, &noted_table::order);
  return tables;
}

}  // namespace

void note_registered(const void* table_identity, std::string_view pattern, std::string_view variant,
                     const std::vector<noted_row>& table_rows) {
  auto& tables = noted_tables();
  const bool first = !tables.contains(table_identity);
  auto& table = tables[table_identity];
  if (first) {
    table.order = tables.size();
    table.pattern = pattern;
    table.rows = table_rows;
  }
  table.registered.emplace(variant);
}

std::vector<std::string> variants_without_rows(bool machine_has_gpu) {
  std::vector<std::string> missing;
  for (const auto* table : in_registration_order()) {
    for (const auto& row : table->rows) {
      if (!row.cpu && !machine_has_gpu) continue;
      if (!table->registered.contains(row.name))
        missing.push_back(table->pattern + "/" + std::string(row.name));
    }
  }
  return missing;
}

std::string variants_json() {
  // Keys sorted (a pattern's variants keep their table order in its array).
  nlohmann::json patterns = nlohmann::json::object();
  std::map<std::string, std::set<std::string_view>, std::less<>> listed;
  for (const auto* table : in_registration_order()) {
    auto& variants = patterns[table->pattern];
    if (variants.is_null()) variants = nlohmann::json::array();
    for (const auto& row : table->rows) {
      if (!listed[table->pattern].insert(row.name).second) continue;
      variants.push_back({{"name", std::string(row.name)},
                          {"description", std::string(row.description)},
                          {"recipe", row.recipe},
                          {"cpu", row.cpu}});
    }
  }
  return patterns.dump();
}

std::vector<std::string> variants_without_description() {
  std::vector<std::string> undescribed;
  for (const auto* table : in_registration_order()) {
    for (const auto& row : table->rows)
      if (row.description.empty())
        undescribed.push_back(table->pattern + "/" + std::string(row.name));
  }
  return undescribed;
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
