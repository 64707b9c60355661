#include "handoff/patterns/postproc_split/chunk_sum.hpp"

#include <array>
#include <cstddef>

namespace handoff::patterns::postproc_split {

// Cloned for AVX2, picked at load time, as NumPy's own sum picks its vector width at run time: the
// suite builds for generic x86-64, whose SSE2 code sums cached floats at well under AVX2's rate;
// with it, four workers together barely kept up with the copy back (figures:
// docs/design/measured-along-the-way.md, "How fast one core sums floats with SSE2 and with AVX2").
// Sixteen lanes keep enough additions in flight to cover their latency at either width. Not under
// ThreadSanitizer, whose run time is not up yet when the loader calls the clones' resolver (the
// program crashed before main).
#if defined(__x86_64__) && !defined(__SANITIZE_THREAD__)
#define HANDOFF_AVX2_CLONE __attribute__((target_clones("avx2", "default")))
#else
#define HANDOFF_AVX2_CLONE
#endif

HANDOFF_AVX2_CLONE double sum_chunk(std::span<const float> values) noexcept {
  constexpr std::size_t lanes = 16;
  std::array<double, lanes> partial{};
  const std::size_t whole = values.size() - values.size() % lanes;
  for (std::size_t index = 0; index < whole; index += lanes) {
    for (std::size_t lane = 0; lane < lanes; ++lane)
      partial[lane] += static_cast<double>(values[index + lane]);
  }
  for (std::size_t index = whole; index < values.size(); ++index)
    partial[index % lanes] += static_cast<double>(values[index]);
  double sum = 0.0;
  for (const double lane_sum : partial)
    sum += lane_sum;
  return sum;
}

}  // namespace handoff::patterns::postproc_split
