#include "extended_inputs.hpp"

#include <memory>
#include <utility>

#include "../harness/latest_cache.hpp"

#include "handoff/reference/extended_elementwise.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::bench {
namespace {

using patterns::elementwise::extended_problem;
using patterns::elementwise::extended_workload;

constexpr std::uint64_t seed_first = 0x5EED002A;
constexpr std::uint64_t seed_second = 0x5EED002B;
constexpr std::uint64_t seed_bias = 0x5EED002C;

std::unique_ptr<extended_data> make_data(extended_workload workload, std::size_t size) {
  auto data = std::make_unique<extended_data>();
  data->workload = workload;
  data->size = size;
  switch (workload) {
    case extended_workload::square:
      data->first.resize(size);
      data->expected.resize(size);
      reference::fill_seeded_nonzero(data->first, seed_first);
      reference::square(data->first, data->expected);
      break;
    case extended_workload::neg_b_over_a:
      data->first.resize(size);
      data->second.resize(size);
      data->expected.resize(size);
      reference::fill_seeded_nonzero(data->first, seed_first);
      reference::fill_seeded_nonzero(data->second, seed_second);
      reference::neg_b_over_a(data->first, data->second, data->expected);
      break;
    case extended_workload::affine:
      data->first.resize(size * size);
      data->second.resize(size * size);
      data->bias.resize(size);
      reference::fill_seeded_nonzero(data->first, seed_first);
      reference::fill_seeded_nonzero(data->second, seed_second);
      reference::fill_seeded_nonzero(data->bias, seed_bias);
      data->oracle = reference::affine_reference(size, data->first, data->second, data->bias);
      break;
  }
  return data;
}

}  // namespace

extended_problem extended_data::problem() const {
  switch (workload) {
    case extended_workload::square:
      return extended_problem::square(first);
    case extended_workload::neg_b_over_a:
      return extended_problem::neg_b_over_a(first, second);
    case extended_workload::affine:
      break;
  }
  return extended_problem::affine(size, first, second, bias);
}

reference::verification_result extended_data::verify(std::span<const float> actual) const {
  if (oracle) return reference::verify_affine(*oracle, actual);
  return reference::verify_elementwise(expected, actual);
}

const extended_data& extended_data_for(extended_workload workload, std::size_t size) {
  static latest_cache<std::pair<extended_workload, std::size_t>, extended_data> cache;
  return cache.get({workload, size}, [&] { return make_data(workload, size); });
}

}  // namespace handoff::bench
