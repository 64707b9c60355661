#include "handoff/patterns/queued_worker/item_batch.hpp"

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::patterns::queued_worker {

item_batch::item_batch(const std::vector<std::size_t>& sizes, std::uint64_t seed) {
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    auto& a = a_.emplace_back(sizes[index]);
    auto& b = b_.emplace_back(sizes[index]);
    reference::fill_seeded_nonzero(a, seed + 2 * index);
    reference::fill_seeded_nonzero(b, seed + 2 * index + 1);
    reference::vector_add(a, b, expected_.emplace_back(sizes[index]));
    out_.emplace_back(sizes[index]);
  }
  // Spans only once every vector is in place, so none points into a buffer that moved.
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    items_.push_back({a_[index], b_[index]});
    outputs_.push_back(out_[index]);
  }
  poison();
}

void item_batch::poison() {
  for (auto& out : out_)
    reference::poison(out);
}

reference::verification_result item_batch::verify() const {
  reference::verification_result total;
  std::size_t offset = 0;
  for (std::size_t index = 0; index < out_.size(); ++index) {
    total.add_slice(reference::verify_elementwise(expected_[index], out_[index]), offset);
    offset += out_[index].size();
  }
  return total;
}

}  // namespace handoff::patterns::queued_worker
