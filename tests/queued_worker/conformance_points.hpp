#pragma once
// The batches every queued_worker row must run and verify, on the host stand-in and on the
// device: the default batch scaled down, a batch of no items, items of no elements, one item of
// one element, and items of an uneven size, more of them than the rings have slots (they wrap).

#include <unistd.h>

#include <string>

#include "handoff/patterns/queued_worker/variants.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::queued_worker::testing_support {

inline constexpr handoff::test_support::named_point<point> conformance_points[] = {
    {"default_small", {.items = 10, .elements = 1 << 12}},
    {"empty", {.items = 0, .elements = 4099}},
    {"empty_items", {.items = 3, .elements = 0}},
    {"one", {.items = 1, .elements = 1}},
    {"uneven", {.items = 7, .elements = 4099}},
};

// A cold point: the session's one run spawns nothing more, but stops and joins its worker.
inline constexpr point cold_point{.items = 5, .elements = 4099, .stop_after_run = true};

// What a row's segment names contain in this process (its purpose names them by pid).
inline std::string segment_fragment(std::string_view variant) {
  return "queued-worker-" + std::string(variant) + "-" + std::to_string(::getpid());
}

}  // namespace handoff::patterns::queued_worker::testing_support
