#include "handoff/patterns/postproc_split/chunk_sum.hpp"

#include <array>
#include <cstddef>

namespace handoff::patterns::postproc_split {

double sum_chunk(std::span<const float> values) noexcept {
  constexpr std::size_t lanes = 8;
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
