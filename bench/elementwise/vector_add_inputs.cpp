#include "vector_add_inputs.hpp"

#include <memory>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t seed_a = 0xA11CE;
constexpr std::uint64_t seed_b = 0xB0B;

}  // namespace

const vector_add_data& vector_add_data_for(std::size_t count) {
  static std::unique_ptr<vector_add_data> cached;
  if (!cached || cached->count != count) {
    cached.reset();  // release the previous size before allocating the next
    auto data = std::make_unique<vector_add_data>();
    data->count = count;
    data->a.resize(count);
    data->b.resize(count);
    data->expected.resize(count);
    reference::fill_seeded_nonzero(data->a, seed_a);
    reference::fill_seeded_nonzero(data->b, seed_b);
    reference::vector_add(data->a, data->b, data->expected);
    cached = std::move(data);
  }
  return *cached;
}

}  // namespace handoff::bench
