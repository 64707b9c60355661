#pragma once
// A batch of items for queued_worker, as the benchmark and the tests both need it: seeded
// never-zero inputs, the reference results, and poisoned outputs the variants write into.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::queued_worker {

class item_batch {
 public:
  // One item per size; item k's a and b are seeded with seed + 2k and seed + 2k + 1.
  explicit item_batch(const std::vector<std::size_t>& sizes, std::uint64_t seed);
  item_batch(const item_batch&) = delete;
  item_batch& operator=(const item_batch&) = delete;

  std::span<const work_item> items() const { return items_; }
  std::span<const std::span<float>> outputs() const { return outputs_; }
  void poison();
  // Every item's c, exactly, in its own output; the first mismatch's index counts from the start
  // of the batch, items back to back.
  reference::verification_result verify() const;

 private:
  std::vector<std::vector<float>> a_, b_, expected_, out_;
  std::vector<work_item> items_;
  std::vector<std::span<float>> outputs_;
};

}  // namespace handoff::patterns::queued_worker
