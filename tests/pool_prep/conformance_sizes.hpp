#pragma once
// The batches every pool_prep row must run and verify, on the host stand-in and on the device:
// the default shape scaled down, an empty batch, one element, chunks that do not divide evenly,
// fewer chunks than workers, and more chunks than elements (array_split's empty tail chunks).

#include <unistd.h>
#include <string>

#include "handoff/patterns/pool_prep/variants.hpp"
#include "support/variant_conformance.hpp"

namespace handoff::patterns::pool_prep::testing_support {

inline constexpr handoff::test_support::named_point<point> conformance_points[] = {
    {"default_small", {.chunks = 10, .elements = 1 << 10, .workers = 4}},
    {"empty", {.chunks = 0, .elements = 0, .workers = 2}},
    {"one", {.chunks = 1, .elements = 1, .workers = 2}},
    {"uneven", {.chunks = 7, .elements = 428, .workers = 3, .extra_elements = 5}},
    {"fewer_chunks_than_workers", {.chunks = 2, .elements = 500, .workers = 3}},
    {"more_chunks_than_elements", {.chunks = 5, .elements = 0, .workers = 2, .extra_elements = 2}},
};

// What shared_gpu's segment names contain in this process (its purpose names them by pid).
inline std::string shared_segment_fragment() {
  return "pool-prep-shared-" + std::to_string(::getpid());
}

}  // namespace handoff::patterns::pool_prep::testing_support
