#pragma once
// independent_tasks' input: datasets of any sizes (seed 001 example 2 has 100 of 10k), stored back
// to back in one buffer, which is the layout CUB's segmented reduction reads: dataset i is
// values()[offsets()[i], offsets()[i + 1]). The process variants hand each dataset out on its own,
// through dataset(i) or views().

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace handoff::patterns::independent_tasks {

class dataset_batch {
 public:
  // Seeded never-zero values (reference::fill_seeded_nonzero); sizes may be uneven or 0.
  static dataset_batch seeded(std::span<const std::size_t> sizes, std::uint64_t seed);
  static dataset_batch uniform(std::size_t datasets, std::size_t elements, std::uint64_t seed);

  std::size_t size() const noexcept { return offsets_.size() - 1; }
  std::size_t total_elements() const noexcept { return values_.size(); }
  std::span<const float> values() const noexcept { return values_; }
  std::span<const std::int64_t> offsets() const noexcept { return offsets_; }
  std::span<const float> dataset(std::size_t index) const;
  std::vector<std::span<const float>> views() const;

 private:
  std::vector<float> values_;
  std::vector<std::int64_t> offsets_{0};
};

}  // namespace handoff::patterns::independent_tasks
