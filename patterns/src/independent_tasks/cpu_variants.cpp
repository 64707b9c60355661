#include "handoff/patterns/independent_tasks/cpu_variants.hpp"

#include <algorithm>
#include <array>
#include <numeric>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"

namespace handoff::patterns::independent_tasks {

float cpu_sum_of_squares(std::span<const float> values) noexcept {
  constexpr std::size_t lanes = 8;
  std::array<double, lanes> sums{};
  const std::size_t whole = values.size() - values.size() % lanes;
  for (std::size_t index = 0; index < whole; index += lanes) {
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      const double value = values[index + lane];
      sums[lane] += value * value;
    }
  }
  for (std::size_t index = whole; index < values.size(); ++index) {
    const double value = values[index];
    sums[0] += value * value;
  }
  return static_cast<float>(std::accumulate(sums.begin(), sums.end(), 0.0));
}

cpu_serial::cpu_serial(const dataset_batch& batch) : batch_(&batch), sums_(batch.size()) {}

void cpu_serial::poison_output() {
  reference::poison(sums_);
}

void cpu_serial::run() {
  for (std::size_t index = 0; index < sums_.size(); ++index)
    sums_[index] = cpu_sum_of_squares(batch_->dataset(index));
}

cpu_threads::cpu_threads(const dataset_batch& batch) : batch_(&batch), sums_(batch.size()) {}

void cpu_threads::poison_output() {
  reference::poison(sums_);
}

void cpu_threads::run() {
  const std::size_t datasets = sums_.size();
  const std::size_t mean_elements = datasets == 0 ? 0 : batch_->total_elements() / datasets;
  const std::size_t datasets_per_thread =
      std::max<std::size_t>(1, reference::parallel_grain / std::max<std::size_t>(1, mean_elements));
  threads_used_ = reference::parallel_for(
      datasets,
      [this](std::size_t begin, std::size_t end) {
        for (std::size_t index = begin; index < end; ++index)
          sums_[index] = cpu_sum_of_squares(batch_->dataset(index));
      },
      reference::default_thread_count(), datasets_per_thread);
}

}  // namespace handoff::patterns::independent_tasks
