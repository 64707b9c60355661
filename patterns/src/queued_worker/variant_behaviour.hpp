#pragma once
// What makes each queued_worker variant itself, in one place per variant (its <name>_variant.cpp):
// its row of the table, the channels its session creates, its producer's batch, its worker's loop
// and the setups it accepts. The session, the worker's main and the protocol look the variant up
// here instead of switching on its kind, so a new variant is one file and one line of variants.cpp.

#include <cstddef>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "handoff/patterns/queued_worker/variants.hpp"
#include "handoff/transport/channels/connection.hpp"
#include "protocol.hpp"

namespace handoff::patterns::queued_worker {

struct session_state;

struct variant_behaviour {
  row table_row;  // its name, targets, clocks, set-up and floor
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

// Each defined in its own file (<name>_variant.cpp) and named in variants.def;
// constant-initialised, so the table may take their addresses before main.
#define HANDOFF_VARIANT(name) extern const variant_behaviour name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

// The behaviour of the variant named variant, from the table in variants.cpp; an unknown name is
// std::invalid_argument, naming the known ones.
const variant_behaviour& behaviour_of(std::string_view variant);

// The one session every row sets up (batch_session.cpp): a worker_session of the variant on the
// target, sized for the point's items.
std::unique_ptr<session<item_batch>> set_up_batch_session(std::string_view variant, const point& at,
                                                          compute_target target);

std::size_t one_item_in_flight(std::size_t slot_count);

// Every variant's row is the same but for its name and floor: it runs on the device and on the
// host stand-in, times itself (a batch spans the producer's and the worker's processes), is set
// up anew for its cold figure, and its session is the batch_session of its kind.
template <const variant_behaviour& behaviour>
std::unique_ptr<session<item_batch>> set_up_variant(const point& at, compute_target target) {
  return set_up_batch_session(behaviour.table_row.name, at, target);
}

// recipe: the article's own way (the seed).
template <const variant_behaviour& behaviour>
constexpr row worker_row(std::string_view name, std::string_view description,
                         decltype(row::floor) floor, bool recipe = false) {
  return {.name = name,
          .description = description,
          .recipe = recipe,
          .targets = {.device = true, .host_stand_in = true},
          .clock = clock_kind::self,
          .cold = cold_kind::fresh_setup,
          .setup = set_up_variant<behaviour>,
          .floor = floor};
}

}  // namespace handoff::patterns::queued_worker
