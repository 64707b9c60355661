#include "handoff/patterns/postproc_split/pooled_split.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "handoff/reference/inputs.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::postproc_split {

const split_setup& checked(const split_setup& setup, std::size_t count) {
  if (setup.workers == 0) throw std::invalid_argument("postproc_split: 0 workers");
  if (setup.chunks == 0 && count > 0) {
    throw std::invalid_argument("postproc_split: 0 chunks of " + std::to_string(count) +
                                " elements");
  }
  return setup;
}

pooled_split::pooled_split(computed_result c, const split_setup& setup)
    : c_(c),
      chunks_(array_split(c.values.size(), checked(setup, c.values.size()).chunks)),
      pool_(setup.workers, setup.patience, setup.name) {}

void pooled_split::poison_result(std::span<float> host_c) noexcept {
  result_ = std::numeric_limits<double>::quiet_NaN();
  std::ranges::fill(partials_, std::numeric_limits<double>::quiet_NaN());
  reference::poison(host_c);
}

void pooled_split::timed_copy_back(std::span<float> host_c, stage_times& stages) const {
  const auto start = wall_clock::now();
  copy_back(c_, host_c);
  stages.d2h += seconds_since(start);
}

double pooled_split::finish(std::vector<double> partials) {
  partials_ = std::move(partials);
  double sum = 0.0;
  for (const double partial : partials_)
    sum += partial;
  result_ = sum;
  return sum;
}

}  // namespace handoff::patterns::postproc_split
