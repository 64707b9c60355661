#include <algorithm>

#include "handoff/patterns/pool_prep/variants.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::pool_prep {

std::size_t point::buffer_elements() const {
  return std::max<std::size_t>(1, reference::array_split_max_chunk(total(), chunks));
}

batch_case::batch_case(const point& at)
    : inputs_(at.work()),
      expected_(reference::expected_chunked_vector_add(inputs_.total_elements, inputs_.seeds)),
      pageable_(inputs_.total_elements),
      last_(pageable_) {}

std::span<float> batch_case::output(output_memory memory) {
  if (memory == output_memory::pageable) {
    last_ = pageable_;
  } else {
    // Allocated on the first poison before a variant's untimed first run, so never timed.
    if (page_locked_.size() != inputs_.total_elements) {
      page_locked_ = pinned_buffer<float>(inputs_.total_elements);
    }
    last_ = page_locked_.span();
  }
  return last_;
}

void batch_case::poison() {
  reference::poison(last_);
}

void batch_case::poison(output_memory memory) {
  reference::poison(output(memory));
}

reference::verification_result batch_case::verify() const {
  return reference::verify_elementwise(expected_, last_);
}

std::unique_ptr<batch_case> make_batch_case(const point& at) {
  return std::make_unique<batch_case>(at);
}

}  // namespace handoff::patterns::pool_prep
