#pragma once
// pool_prep's inputs and oracle. A batch of `total` elements is cut into `chunks` pieces the way
// np.array_split cuts it: the first total % chunks pieces are one element longer than the rest,
// so sizes that do not divide evenly still cover every element once, in order. Each element of a
// and b is drawn from its global index, so a chunk's inputs are the same whoever prepares them and
// however the batch is cut.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace handoff::reference {

struct chunk_extent {
  std::size_t offset = 0;  // index of the chunk's first element in the batch
  std::size_t count = 0;
  bool operator==(const chunk_extent&) const = default;
};

// The index-th of `chunks` pieces of [0, total). chunks == 0 with total > 0, or index >= chunks,
// is std::invalid_argument.
chunk_extent array_split_chunk(std::size_t total, std::size_t chunks, std::size_t index);

// The longest piece: what a buffer must hold for any chunk of the batch.
std::size_t array_split_max_chunk(std::size_t total, std::size_t chunks);

struct vector_add_seeds {
  std::uint64_t a = 0xA11CE;
  std::uint64_t b = 0xB0B;
};

// One chunk's preparation, the work the recipe hands to its pool: a[i] and b[i] are the seeded,
// never-zero values of global index offset + i. a and b must have the same length (else
// std::invalid_argument). Runs on the calling thread only, so a pool's workers each prepare one
// chunk at a time.
void prepare_vector_add_chunk(const vector_add_seeds& seeds, std::size_t offset, std::span<float> a,
                              std::span<float> b);

// out = a + b on the calling thread only (reference::vector_add may start threads): the add of
// the CPU variants, whose parallelism is the pool's, one chunk per worker. Lengths must match
// (else std::invalid_argument).
void add_chunk_on_this_thread(std::span<const float> a, std::span<const float> b,
                              std::span<float> out);

// The whole batch's a + b, computed from the full inputs (not chunk by chunk), as the oracle.
std::vector<float> expected_chunked_vector_add(std::size_t total, const vector_add_seeds& seeds);

}  // namespace handoff::reference
