#pragma once
// pool_prep as a table of variants (variant.hpp). A point is one batch shape and pool size; its
// case holds the batch's inputs (sizes and seeds), the reference c = a + b and the output the
// variants write into. The rows: cpu_serial and cpu_pool (the CPU references), seed (the recipe's
// spawned pool, a CUDA context per worker), shared_gpu (workers prepare into shared memory, one
// GPU owner streams) and threads (preparation threads and streams in one process).

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/pool_prep/batch.hpp"
#include "handoff/patterns/variant.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::pool_prep {

// The seeds of every batch the suite measures and checks.
inline constexpr reference::vector_add_seeds batch_seeds{.a = 0x9001, .b = 0x9002};

struct point {
  std::size_t chunks = 10;
  std::size_t elements = std::size_t{1} << 20;  // per chunk
  std::size_t workers = 4;                      // processes, or preparation threads
  // Elements beyond chunks x elements, one more to each of the first chunks (as np.array_split
  // cuts): the tests' uneven batches. The benchmarks' batches are even.
  std::size_t extra_elements = 0;
  std::size_t total() const { return chunks * elements + extra_elements; }
  batch work() const { return {.total_elements = total(), .chunks = chunks, .seeds = batch_seeds}; }
  // What a variant's buffers must hold for one chunk; at least 1, as no buffer may be empty.
  std::size_t buffer_elements() const;
  bool operator==(const point&) const = default;
};

// Where a variant's output lives: page-locked where a GPU owner copies into it asynchronously
// (shared_gpu and threads on the device), ordinary memory otherwise.
enum class output_memory { pageable, page_locked };

class batch_case {
 public:
  explicit batch_case(const point& at);

  const batch& inputs() const noexcept { return inputs_; }
  // The output of the given memory, allocated on first use (a page-locked one only then, and
  // only where there is a GPU); it becomes the one poison() and verify() see.
  std::span<float> output(output_memory memory);
  void poison();
  void poison(output_memory memory);
  reference::verification_result verify() const;

 private:
  batch inputs_;
  std::vector<float> expected_;
  std::vector<float> pageable_;
  pinned_buffer<float> page_locked_;
  std::span<float> last_;
};

std::unique_ptr<batch_case> make_batch_case(const point& at);

using row = variant_row<point, batch_case>;
variant_table<point, batch_case> pool_prep_variants();

// The fastest of a few preparations of one chunk on this thread, into memory already touched, so
// that it prices the preparation alone. Every row reports it (chunk_prep_seconds) and its floor
// uses the same measurement: the latest one for that chunk size.
double measure_chunk_prep_seconds(std::size_t chunk_elements);
double latest_chunk_prep_seconds(std::size_t chunk_elements);

}  // namespace handoff::patterns::pool_prep
