#include "pool_prep_data.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "handoff/reference/inputs.hpp"

namespace handoff::bench::pool_prep {

const std::vector<float>& expected_batch(std::size_t total_elements) {
  static std::optional<std::size_t> cached_total;
  static std::vector<float> cached;
  if (cached_total != total_elements) {
    cached = reference::expected_chunked_vector_add(total_elements, batch_seeds);
    cached_total = total_elements;
  }
  return cached;
}

double median_chunk_prep_seconds(std::size_t chunk_elements) {
  constexpr int repetitions = 5;
  std::vector<float> a(chunk_elements), b(chunk_elements);
  std::vector<double> seconds;
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    const auto start = std::chrono::steady_clock::now();
    reference::prepare_vector_add_chunk(batch_seeds, chunk_elements, a, b);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::nth_element(seconds.begin(), seconds.begin() + repetitions / 2, seconds.end());
  return seconds[repetitions / 2];
}

batch_output::batch_output(bool page_locked, std::size_t count) {
  if (page_locked) {
    pinned_ = pinned_buffer<float>(count);
    floats_ = pinned_.span();
  } else {
    pageable_.resize(count);
    floats_ = pageable_;
  }
}

void batch_output::poison() const {
  reference::poison(floats_);
}

}  // namespace handoff::bench::pool_prep
