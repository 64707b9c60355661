#include "handoff/reference/pool_prep_inputs.hpp"

#include <stdexcept>
#include <string>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::reference {

chunk_extent array_split_chunk(std::size_t total, std::size_t chunks, std::size_t index) {
  if (chunks == 0) {
    if (total == 0) throw std::invalid_argument("array_split_chunk: a batch of 0 chunks has none");
    throw std::invalid_argument("array_split_chunk: " + std::to_string(total) +
                                " elements cannot be cut into 0 chunks");
  }
  if (index >= chunks) {
    throw std::invalid_argument("array_split_chunk: chunk " + std::to_string(index) +
                                " of a batch of " + std::to_string(chunks));
  }
  const std::size_t base = total / chunks;
  const std::size_t longer = total % chunks;
  return {index * base + (index < longer ? index : longer), base + (index < longer ? 1 : 0)};
}

std::size_t array_split_max_chunk(std::size_t total, std::size_t chunks) {
  if (chunks == 0) return 0;
  return total / chunks + (total % chunks != 0 ? 1 : 0);
}

void prepare_vector_add_chunk(const vector_add_seeds& seeds, std::size_t offset, std::span<float> a,
                              std::span<float> b) {
  if (a.size() != b.size()) {
    throw std::invalid_argument("prepare_vector_add_chunk: a and b must have the same length");
  }
  fill_seeded_nonzero(a, seeds.a, offset);
  fill_seeded_nonzero(b, seeds.b, offset);
}

void add_chunk_on_this_thread(std::span<const float> a, std::span<const float> b,
                              std::span<float> out) {
  if (a.size() != b.size() || a.size() != out.size()) {
    throw std::invalid_argument("add_chunk_on_this_thread: a, b and out must have the same length");
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = a[i] + b[i];
}

std::vector<float> expected_chunked_vector_add(std::size_t total, const vector_add_seeds& seeds) {
  std::vector<float> a(total), b(total), out(total);
  fill_seeded_nonzero(a, seeds.a);
  fill_seeded_nonzero(b, seeds.b);
  vector_add(a, b, out);
  return out;
}

}  // namespace handoff::reference
