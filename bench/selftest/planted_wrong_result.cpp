#include "planted_wrong_result.hpp"

#include <vector>

#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::bench {

void register_planted_wrong_result() {
  register_benchmark("selftest/planted_wrong_result", [](benchmark::State& state) {
    constexpr std::size_t count = 4096;
    std::vector<float> a(count), b(count), expected(count);
    reference::fill_seeded_nonzero(a, 1);
    reference::fill_seeded_nonzero(b, 2);
    reference::vector_add(a, b, expected);
    patterns::elementwise::vector_add_cpu_serial variant({a, b});
    measure_wall_region(
        state, [&] { variant.poison_output(); }, [&] { variant.run(); });
    std::vector<float> tampered(variant.result().begin(), variant.result().end());
    tampered[count / 2] += 1.0f;
    record_verification(state, reference::verify_elementwise(expected, tampered));
  });
}

}  // namespace handoff::bench
