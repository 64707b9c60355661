// The table of queued_worker's variants: those variants.def names, in its order. Everything a
// variant does differently is in its behaviour (its own file); the table is where the session,
// the worker's main, the protocol, the benchmarks and the tests find it.

#include <array>
#include <stdexcept>
#include <string>

#include "variant_behaviour.hpp"

namespace handoff::patterns::queued_worker {
namespace {

constinit const std::array behaviours{
#define HANDOFF_VARIANT(name) &name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
};

}  // namespace

const variant_behaviour& behaviour_of(std::string_view variant) {
  std::string known;
  for (const auto* behaviour : behaviours) {
    if (behaviour->table_row.name == variant) return *behaviour;
    known += (known.empty() ? "" : ", ") + std::string(behaviour->table_row.name);
  }
  throw std::invalid_argument("unknown queued_worker variant '" + std::string(variant) +
                              "': expected one of " + known);
}

variant_table<point, item_batch> queued_worker_variants() {
  static const auto rows = [] {
    std::array<row, behaviours.size()> table;
    for (std::size_t index = 0; index < behaviours.size(); ++index)
      table[index] = behaviours[index]->table_row;
    return table;
  }();
  return rows;
}

std::unique_ptr<item_batch> make_batch(const point& at) {
  return std::make_unique<item_batch>(std::vector<std::size_t>(at.items, at.elements), 0x0E2A);
}

std::size_t one_item_in_flight(std::size_t /*slot_count*/) {
  return 1;
}

}  // namespace handoff::patterns::queued_worker
