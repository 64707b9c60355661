#pragma once
// What every pool_prep variant is asked to do: seed 000 example 1 (and seed 001 example 1). A pool
// prepares a batch of vector-add inputs chunk by chunk, the sums are computed on the GPU (or the
// CPU), and the caller gets c = a + b back whole and in order. The batch is cut like
// np.array_split (reference::array_split_chunk), so uneven sizes still come back complete.

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns::pool_prep {

struct batch {
  std::size_t total_elements = 0;
  std::size_t chunks = 0;
  reference::vector_add_seeds seeds = {};

  reference::chunk_extent chunk(std::size_t index) const {
    return reference::array_split_chunk(total_elements, chunks, index);
  }
  std::size_t max_chunk_elements() const {
    return reference::array_split_max_chunk(total_elements, chunks);
  }
};

// A batch no variant can run: elements but no chunks, or chunks longer than the variant's buffers
// (limit, when given). std::invalid_argument names what is wrong.
void check_batch(const batch& work, std::optional<std::size_t> max_chunk_elements = std::nullopt);

// A pool of 0 workers is std::invalid_argument.
void check_pool_size(std::size_t workers, const char* variant);

// A worker reported that a chunk failed (a CUDA error, say). Names the worker and the chunk.
class chunk_failed : public transport::process_error {
 public:
  chunk_failed(std::string message, std::string worker)
      : transport::process_error(std::move(message)), worker_(std::move(worker)) {}
  const std::string& worker() const noexcept { return worker_; }

 private:
  std::string worker_;
};

// A pool whose earlier batch failed: its workers were stopped, like Pool.terminate(), and it takes
// no more batches.
class pool_terminated : public transport::process_error {
 public:
  using transport::process_error::process_error;
};

// Every blocking step of a batch (a reply, a slot, a chunk) waits at most this long by default.
inline constexpr std::chrono::milliseconds default_patience = std::chrono::seconds(60);

}  // namespace handoff::patterns::pool_prep
