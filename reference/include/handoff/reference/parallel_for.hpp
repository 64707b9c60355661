#pragma once
// Splits [0, count) into contiguous slices, one per thread, and runs body(begin, end) on each.
// Small ranges stay on the calling thread, where starting threads would cost more than the work.

#include <cstddef>
#include <functional>

namespace handoff::reference {

inline constexpr std::size_t parallel_grain = 1 << 16;

unsigned default_thread_count() noexcept;

// Returns the number of threads that ran slices, the calling thread included.
unsigned parallel_for(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body,
                      unsigned max_threads = default_thread_count(),
                      std::size_t min_per_thread = parallel_grain);

}  // namespace handoff::reference
