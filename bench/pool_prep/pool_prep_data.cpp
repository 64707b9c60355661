#include "pool_prep_data.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>

#include "../harness/latest_cache.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::bench::pool_prep {

const std::vector<float>& expected_batch(std::size_t total_elements) {
  static latest_cache<std::size_t, std::vector<float>> cache;
  return cache.get(total_elements, [&] {
    return std::make_unique<std::vector<float>>(
        reference::expected_chunked_vector_add(total_elements, batch_seeds));
  });
}

// The floor is a lower bound, so its measured share takes the fastest of several runs after a
// warm-up: a median on a busy machine came out slower than the workers' own preparation and put
// shared_gpu above 100% of its floor.
double fastest_chunk_prep_seconds(std::size_t chunk_elements) {
  constexpr int repetitions = 7;
  std::vector<float> a(chunk_elements), b(chunk_elements);
  reference::prepare_vector_add_chunk(batch_seeds, chunk_elements, a, b);
  double fastest = std::numeric_limits<double>::infinity();
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    const auto start = std::chrono::steady_clock::now();
    reference::prepare_vector_add_chunk(batch_seeds, chunk_elements, a, b);
    fastest = std::min(
        fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return fastest;
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
