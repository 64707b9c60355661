#include "vector_add_inputs.hpp"

#include <memory>

#include "../harness/latest_cache.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t seed_a = 0xA11CE;
constexpr std::uint64_t seed_b = 0xB0B;

}  // namespace

const vector_add_data& vector_add_data_for(std::size_t count) {
  static latest_cache<std::size_t, vector_add_data> cache;
  return cache.get(count, [&] {
    auto data = std::make_unique<vector_add_data>();
    data->count = count;
    data->a.resize(count);
    data->b.resize(count);
    data->expected.resize(count);
    reference::fill_seeded_nonzero(data->a, seed_a);
    reference::fill_seeded_nonzero(data->b, seed_b);
    reference::vector_add(data->a, data->b, data->expected);
    return data;
  });
}

}  // namespace handoff::bench
