// The measured share of pool_prep's floors: how long one chunk's preparation takes on one thread.
// It is measured in the same run as the row it prices, after the timed runs, and each row's
// floor uses the measurement its chunk_prep_seconds counter reports.

#include <algorithm>
#include <limits>
#include <mutex>
#include <optional>
#include <vector>

#include "handoff/patterns/pool_prep/variants.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::patterns::pool_prep {
namespace {

struct measurement {
  std::size_t chunk_elements = 0;
  double seconds = 0;
};

std::mutex latest_mutex;
std::optional<measurement> latest;

}  // namespace

// The floor is a lower bound, so its measured share takes the fastest of several runs after a
// warm-up: a median on a busy machine came out slower than the workers' own preparation and put
// shared_gpu above 100% of its floor.
double measure_chunk_prep_seconds(std::size_t chunk_elements) {
  constexpr int repetitions = 7;
  std::vector<float> a(chunk_elements), b(chunk_elements);
  reference::prepare_vector_add_chunk(batch_seeds, chunk_elements, a, b);
  double fastest = std::numeric_limits<double>::infinity();
  for (int repetition = 0; repetition < repetitions; ++repetition) {
    const auto start = wall_clock::now();
    reference::prepare_vector_add_chunk(batch_seeds, chunk_elements, a, b);
    fastest = std::min(fastest, seconds_since(start));
  }
  const std::lock_guard lock(latest_mutex);
  latest = measurement{chunk_elements, fastest};
  return fastest;
}

double latest_chunk_prep_seconds(std::size_t chunk_elements) {
  {
    const std::lock_guard lock(latest_mutex);
    if (latest && latest->chunk_elements == chunk_elements) return latest->seconds;
  }
  return measure_chunk_prep_seconds(chunk_elements);
}

}  // namespace handoff::patterns::pool_prep
