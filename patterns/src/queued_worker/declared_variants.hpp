#pragma once
// Every queued_worker variant, each defined whole (its row, with its worker's behaviour) in its
// own file (<name>_variant.cpp) and named in variants.def, and what their rows share.

#include <cstddef>
#include <memory>
#include <string_view>

#include "handoff/patterns/queued_worker/variants.hpp"
#include "protocol.hpp"

namespace handoff::patterns::queued_worker {

// Constant-initialised, so the table may copy them before main.
#define HANDOFF_VARIANT(name) extern const row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

// The one session every row sets up (batch_session.cpp): a worker_session of the variant on the
// target, sized for the point's items.
std::unique_ptr<session<item_batch>> set_up_batch_session(std::string_view variant, const point& at,
                                                          compute_target target);

std::size_t one_item_in_flight(std::size_t slot_count);

template <const row& variant>
std::unique_ptr<session<item_batch>> set_up_variant(const point& at, compute_target target) {
  return set_up_batch_session(variant.name, at, target);
}

// Every variant's row is the same but for its name, floor and behaviour: it runs on the device
// and on the host stand-in, times itself (a batch spans the producer's and the worker's
// processes), is set up anew for its cold figure, and its session is the batch_session of its
// kind. recipe: the article's own way (the seed).
template <const row& variant>
constexpr row worker_row(std::string_view name, std::string_view description,
                         decltype(row::floor) floor, worker_behaviour behaviour,
                         bool recipe = false) {
  return {.name = name,
          .description = description,
          .recipe = recipe,
          .targets = {.device = true, .host_stand_in = true},
          .clock = clock_kind::self,
          .cold = cold_kind::fresh_setup,
          .setup = set_up_variant<variant>,
          .floor = floor,
          .specifics = behaviour};
}

}  // namespace handoff::patterns::queued_worker
