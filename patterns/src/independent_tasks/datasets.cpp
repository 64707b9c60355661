#include "handoff/patterns/independent_tasks/datasets.hpp"

#include <stdexcept>
#include <string>

#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::independent_tasks {

dataset_batch dataset_batch::seeded(std::span<const std::size_t> sizes, std::uint64_t seed) {
  dataset_batch batch;
  batch.offsets_.reserve(sizes.size() + 1);
  std::size_t total = 0;
  for (const std::size_t size : sizes) {
    total += size;
    batch.offsets_.push_back(static_cast<std::int64_t>(total));
  }
  batch.values_.resize(total);
  reference::fill_seeded_nonzero(batch.values_, seed);
  return batch;
}

dataset_batch dataset_batch::uniform(std::size_t datasets, std::size_t elements,
                                     std::uint64_t seed) {
  const std::vector<std::size_t> sizes(datasets, elements);
  return seeded(sizes, seed);
}

std::span<const float> dataset_batch::dataset(std::size_t index) const {
  if (index >= size()) {
    throw std::out_of_range("dataset " + std::to_string(index) + " of a batch of " +
                            std::to_string(size()));
  }
  const auto begin = static_cast<std::size_t>(offsets_[index]);
  const auto end = static_cast<std::size_t>(offsets_[index + 1]);
  return std::span<const float>(values_).subspan(begin, end - begin);
}

std::vector<std::span<const float>> dataset_batch::views() const {
  std::vector<std::span<const float>> views;
  views.reserve(size());
  for (std::size_t index = 0; index < size(); ++index)
    views.push_back(dataset(index));
  return views;
}

}  // namespace handoff::patterns::independent_tasks
