#include "handoff/reference/partitioned_elementwise.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {
namespace {

// Ranges sorted by offset, once they are known to tile [0, elements) without gap or overlap.
std::vector<value_range> tiling_ranges(std::span<const value_range> ranges, std::size_t elements) {
  std::vector<value_range> sorted;
  sorted.reserve(ranges.size());
  for (const auto& range : ranges) {
    if (range.count > 0) sorted.push_back(range);
  }
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const value_range& a, const value_range& b) { return a.offset < b.offset; });
  std::size_t covered = 0;
  for (const auto& range : sorted) {
    if (range.offset > covered && covered < elements) break;  // a gap: reported below
    if (range.offset < covered) {
      throw std::invalid_argument("apply_partitioned: index " + std::to_string(range.offset) +
                                  " is covered by more than one range");
    }
    if (range.count > elements - covered || range.offset >= elements) {
      throw std::invalid_argument(
          "apply_partitioned: the range at offset " + std::to_string(range.offset) + " of count " +
          std::to_string(range.count) + " runs past the " + std::to_string(elements) + " elements");
    }
    covered += range.count;
  }
  if (covered < elements) {
    throw std::invalid_argument("apply_partitioned: index " + std::to_string(covered) +
                                " is not covered by any range");
  }
  return sorted;
}

}  // namespace

float device_value_of(int device) noexcept {
  return 1.0f + static_cast<float>(device);
}

void apply_partitioned(element_reference element, std::span<const float> input,
                       std::span<const value_range> ranges, std::span<float> output) {
  if (element == nullptr) throw std::invalid_argument("apply_partitioned: no element reference");
  if (input.size() != output.size()) {
    throw std::invalid_argument("apply_partitioned: input has " + std::to_string(input.size()) +
                                " elements but output has " + std::to_string(output.size()));
  }
  const std::vector<value_range> sorted = tiling_ranges(ranges, input.size());
  // No range covers an empty input, so there is none to look up (and std::prev of begin() of
  // an empty list is undefined).
  if (input.empty()) return;
  parallel_for(input.size(), [&](std::size_t begin, std::size_t end) {
    // The last range starting at or before begin holds it; later ones follow in order.
    auto range = std::prev(std::upper_bound(
        sorted.begin(), sorted.end(), begin,
        [](std::size_t index, const value_range& candidate) { return index < candidate.offset; }));
    for (std::size_t i = begin; i < end; ++range) {
      const std::size_t stop = std::min(end, range->offset + range->count);
      for (; i < stop; ++i)
        output[i] = element(input[i], range->value);
    }
  });
}

}  // namespace handoff::reference
