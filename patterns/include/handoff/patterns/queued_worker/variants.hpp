#pragma once
// queued_worker as a table of variants (seed, slots, streamed): the benchmark driver, the floors
// and the conformance tests all take the variants from queued_worker_variants(). Every row runs a
// batch of items through one GPU worker process; its session times itself (the producer's wall
// clock around the batch), and a cold row sets up a new worker for each batch and joins it.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "handoff/patterns/queued_worker/item_batch.hpp"
#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::transport {
class connection;
}

namespace handoff::patterns::queued_worker {

// The pattern's own parts, defined in its sources.
struct session_state;
namespace protocol {
enum class ending : std::uint32_t;
struct worker_arguments;
}  // namespace protocol

struct point {
  std::size_t items = 10;
  std::size_t elements = std::size_t{1} << 20;  // per item
  // A cold row's run is the recipe's whole run after the spawn: the batch, the stop sentinel and
  // the join of the worker, so that set-up plus one run is what a script run once pays.
  bool stop_after_run = false;
  bool operator==(const point&) const = default;
};

// What makes each variant itself beyond its row's common fields: the channels its session
// creates, its producer's batch, its worker's loop and the setups it accepts. The session, the
// worker's main and the protocol look the variant's row up by name instead of switching on it.
struct worker_behaviour {
  // The fewest slots per ring its setup may ask for; 0: it has no rings.
  std::size_t least_slots = 0;
  // Whether recipe_fixes may be turned off (only the seed's queues have the recipe's deadlocks).
  bool recipe_fixes_optional = false;
  // The items its worker keeps in flight with slot_count slots per ring.
  std::size_t (*pipeline_depth)(std::size_t slot_count) = nullptr;
  // Creates the session's channels; returns the descriptors the worker inherits, in order.
  std::vector<int> (*create_channels)(session_state& state) = nullptr;
  // The producer's side of one batch, ended by the sentinel `how`.
  batch_result (*run_producer)(session_state& state, std::span<const work_item> items,
                               std::span<const std::span<float>> outputs,
                               protocol::ending how) = nullptr;
  // The worker's loop, until a stop sentinel or the coordinator closes the control channel.
  void (*run_worker)(const protocol::worker_arguments& arguments,
                     transport::connection& control) = nullptr;
};

using row = variant_row<point, item_batch, worker_behaviour>;

// The seeded batch of a point: items of elements each, as the benchmarks have always seeded it.
std::unique_ptr<item_batch> make_batch(const point& at);

variant_table<point, item_batch, worker_behaviour> queued_worker_variants();

// The row of the variant named variant; an unknown name is std::invalid_argument, naming the known
// ones.
const row& row_of(std::string_view variant);

}  // namespace handoff::patterns::queued_worker
