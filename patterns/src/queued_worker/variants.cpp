// The table of queued_worker's variants: those variants.def names, in its order. Everything a
// variant does differently is in its row (its own file); the table is where the session, the
// worker's main, the protocol, the benchmarks and the tests find it.

#include <stdexcept>
#include <string>

#include "declared_variants.hpp"

namespace handoff::patterns::queued_worker {

variant_table<point, item_batch, worker_behaviour> queued_worker_variants() {
  // The rows live in the variants' files; the benchmarks and tests want them side by side.
  static const row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

const row& row_of(std::string_view variant) {
  std::string known;
  for (const auto& each : queued_worker_variants()) {
    if (each.name == variant) return each;
    known += (known.empty() ? "" : ", ") + std::string(each.name);
  }
  throw std::invalid_argument("unknown queued_worker variant '" + std::string(variant) +
                              "': expected one of " + known);
}

std::unique_ptr<item_batch> make_batch(const point& at) {
  return std::make_unique<item_batch>(std::vector<std::size_t>(at.items, at.elements), 0x0E2A);
}

std::size_t one_item_in_flight(std::size_t /*slot_count*/) {
  return 1;
}

}  // namespace handoff::patterns::queued_worker
