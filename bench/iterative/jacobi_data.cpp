#include "jacobi_data.hpp"

#include <cstdint>
#include <memory>

#include "../harness/latest_cache.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/jacobi.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t seed_b = 0x1AC0B1;
constexpr std::uint64_t seed_x0 = 0x1AC0B2;

}  // namespace

const jacobi_data& jacobi_data_for(std::size_t unknowns) {
  static latest_cache<std::size_t, jacobi_data> cache;
  return cache.get(unknowns, [&] {
    auto data = std::make_unique<jacobi_data>();
    data->unknowns = unknowns;
    data->b.resize(unknowns);
    data->x0.resize(unknowns);
    reference::fill_seeded_nonzero(data->b, seed_b);
    reference::fill_seeded_nonzero(data->x0, seed_x0);
    data->expected = reference::jacobi_1d_tiled(data->b, data->x0, jacobi_iterations);
    return data;
  });
}

}  // namespace handoff::bench
