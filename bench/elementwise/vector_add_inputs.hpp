#pragma once
// Seeded inputs and the reference result for one element count, shared by every variant at that
// size. Only the latest size is kept: at 2^28 elements one set is 3 GiB.

#include <cstddef>
#include <vector>

namespace handoff::bench {

struct vector_add_data {
  std::size_t count = 0;
  std::vector<float> a, b, expected;
};

const vector_add_data& vector_add_data_for(std::size_t count);

}  // namespace handoff::bench
