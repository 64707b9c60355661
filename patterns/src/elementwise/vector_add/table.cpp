// The vector add's table (the rows variants.def names, in its order), the case every variant of a
// size shares, and what the variants' files share: the CPU loop and the transfers' floor.

#include <cstdint>

#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

constexpr std::uint64_t seed_a = 0xA11CE;
constexpr std::uint64_t seed_b = 0xB0B;

}  // namespace

std::shared_ptr<const vector_add_inputs> seeded_vector_add_inputs(std::size_t count) {
  // Only the latest size is remembered, and only while a case or a session still holds it.
  static std::weak_ptr<const vector_add_inputs> latest;
  if (auto held = latest.lock(); held && held->a.size() == count) return held;
  auto inputs = std::make_shared<vector_add_inputs>();
  inputs->a.resize(count);
  inputs->b.resize(count);
  reference::fill_seeded_nonzero(inputs->a, seed_a);
  reference::fill_seeded_nonzero(inputs->b, seed_b);
  latest = inputs;
  return inputs;
}

vector_add_case::vector_add_case(const vector_add_point& at)
    : inputs_(seeded_vector_add_inputs(at.count)), expected_(at.count) {
  reference::vector_add(inputs_->a, inputs_->b, expected_);
}

reference::verification_result vector_add_case::verify_sum(std::span<const float> out) const {
  return reference::verify_elementwise(expected_, out);
}

std::unique_ptr<vector_add_case> make_vector_add_case(const vector_add_point& at) {
  return std::make_unique<vector_add_case>(at);
}

double vector_add_bytes(std::size_t count) {
  return 3.0 * sizeof(float) * static_cast<double>(count);
}

void add_range(const vector_add_inputs& inputs, std::span<float> out, std::size_t begin,
               std::size_t end) {
  for (std::size_t i = begin; i < end; ++i)
    out[i] = inputs.a[i] + inputs.b[i];
}

floor_terms vector_add_transfers_floor(std::size_t count, const char* upload,
                                       const char* download) {
  const double element = sizeof(float);
  floor_terms floor;
  floor.add_bytes(upload, 2.0 * element * static_cast<double>(count))
      .add_bytes(ceiling::device_copy, vector_add_bytes(count))
      .add_bytes(download, element * static_cast<double>(count))
      .add_events(ceiling::launch_async, 1);
  return floor;
}

variant_table<vector_add_point, vector_add_case> vector_add_variants() {
  static const vector_add_row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

}  // namespace handoff::patterns::elementwise
