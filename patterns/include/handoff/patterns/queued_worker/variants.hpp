#pragma once
// queued_worker as a table of variants (seed, slots, streamed): the benchmark driver, the floors
// and the conformance tests all take the variants from queued_worker_variants(). Every row runs a
// batch of items through one GPU worker process; its session times itself (the producer's wall
// clock around the batch), and a cold row sets up a new worker for each batch and joins it.

#include <cstddef>
#include <memory>

#include "handoff/patterns/queued_worker/item_batch.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::queued_worker {

struct point {
  std::size_t items = 10;
  std::size_t elements = std::size_t{1} << 20;  // per item
  // A cold row's run is the recipe's whole run after the spawn: the batch, the stop sentinel and
  // the join of the worker, so that set-up plus one run is what a script run once pays.
  bool stop_after_run = false;
  bool operator==(const point&) const = default;
};

using row = variant_row<point, item_batch>;

// The seeded batch of a point: items of elements each, as the benchmarks have always seeded it.
std::unique_ptr<item_batch> make_batch(const point& at);

variant_table<point, item_batch> queued_worker_variants();

}  // namespace handoff::patterns::queued_worker
