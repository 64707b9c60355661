#pragma once
// What the process variants' floors share (each variant's own floor is in its file):
//   - post, one thread's sum of all of c, priced chunk by chunk and measured in the same run: no
//     ceiling of the suite bounds one thread reading host memory that may sit in cache;
//   - no more workers count than hardware threads;
//   - the copy back's ceiling: PCIe d2h on the device; on the host stand-in a host memcpy, priced
//     by the one-thread memcpy ceiling instead.
// A cold figure has the warm floor: its workers never create a CUDA context, so the suite's only
// process ceiling (start with context creation) would price a cost cold runs do not pay.

#include <cstddef>

#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/floor_terms.hpp"

namespace handoff::patterns::postproc_split {

// One thread's sum of count seeded floats, priced by summing one unit of work (a chunk, which
// the workers sum as a whole) and scaled to count: the fastest of fifteen timed runs after a
// warm-up, not the median, for the floor must stay a lower bound (a median taken on a busy machine
// came out slower than the workers' own sums, and the row SUSPECT). Summing the whole of c at once
// read it from memory, where the workers' chunks sit in cache: that made overlapped's floor slower
// than overlapped itself, SUSPECT too. Measured by each row's session after its timed runs (its
// figure one_thread_sum_seconds), never kept from one row to the next: it varied widely from one
// repetition to the next, and one slow reading kept for every row made each of them SUSPECT.
inline constexpr const char* one_thread_sum_figure = "one_thread_sum_seconds";
double one_thread_sum_seconds(std::size_t count, std::size_t unit_elements);
// The figure the session measured for this row; std::logic_error if it has none.
double one_thread_sum_seconds(const measured_run& run);

// Workers that can be summing at the same moment, given how many units of work there are.
std::size_t concurrent_summers(std::size_t workers, std::size_t units);

// post / the workers that can sum at once sharing units of work; 0 for an empty c.
double shared_post_seconds(std::size_t count, const measured_run& run, std::size_t workers,
                           std::size_t units);

// The ceiling the copy back of c runs at: pinned or pageable d2h, or a host memcpy on the stand-in.
const char* copy_back_ceiling(compute_target target, bool pinned);

}  // namespace handoff::patterns::postproc_split
