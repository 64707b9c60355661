#pragma once
// What every pool_prep benchmark needs besides its variant: the oracle for the batch, an output of
// the kind the variant writes into, and the measured cost of preparing one chunk.

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"

namespace handoff::bench::pool_prep {

inline constexpr reference::vector_add_seeds batch_seeds{.a = 0x9001, .b = 0x9002};

// reference::expected_chunked_vector_add for the batch, kept for the latest size asked for, since
// consecutive benchmarks share a size.
const std::vector<float>& expected_batch(std::size_t total_elements);

// The fastest of a few preparations of one chunk on this thread, into memory already touched, so
// that it prices the preparation alone.
double fastest_chunk_prep_seconds(std::size_t chunk_elements);

// Page-locked where a GPU owner copies into it (shared_gpu, threads), ordinary memory otherwise.
class batch_output {
 public:
  batch_output(bool page_locked, std::size_t count);
  std::span<float> floats() const { return floats_; }
  void poison() const;

 private:
  pinned_buffer<float> pinned_;
  std::vector<float> pageable_;
  std::span<float> floats_;
};

}  // namespace handoff::bench::pool_prep
