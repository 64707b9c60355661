#include "handoff/patterns/pool_prep/batch.hpp"

#include <stdexcept>

namespace handoff::patterns::pool_prep {

void check_batch(const batch& work, std::optional<std::size_t> max_chunk_elements) {
  if (work.chunks == 0 && work.total_elements > 0) {
    throw std::invalid_argument("pool_prep: a batch of " + std::to_string(work.total_elements) +
                                " elements needs at least one chunk");
  }
  if (max_chunk_elements && work.max_chunk_elements() > *max_chunk_elements) {
    throw std::invalid_argument(
        "pool_prep: a chunk of " + std::to_string(work.max_chunk_elements()) +
        " elements does not fit buffers sized for " + std::to_string(*max_chunk_elements));
  }
}

void check_pool_size(std::size_t workers, const char* variant) {
  if (workers == 0) {
    throw std::invalid_argument(std::string("pool_prep ") + variant +
                                ": a pool needs at least one worker");
  }
}

}  // namespace handoff::patterns::pool_prep
