// The vector add's table: one line per variant, and the case every variant of a size shares.

#include <cstdint>

#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::patterns::elementwise {
namespace {

constexpr std::uint64_t seed_a = 0xA11CE;
constexpr std::uint64_t seed_b = 0xB0B;

constexpr runs_on on_cpu{.cpu = true};
constexpr runs_on on_device{.device = true};

// None has stages to tell apart (one loop, or copies and one kernel timed as a whole).
// The CPU variants have no floor: none of the suite's ceilings bounds them. The one-thread memcpy
// ceiling measures a copy into shared memory with non-temporal stores, not a loop with two input
// streams whose data may sit in cache, and nothing bounds several threads.
const variant_row<vector_add_point, vector_add_case> rows[] = {
    {.name = "cpu_serial",
     .description = "one CPU thread",
     .targets = on_cpu,
     .reports_stages = false,
     .setup = set_up_vector_add_cpu_serial,
     .threads = host_threads::calling_only},
    {.name = "cpu_threads",
     .description = "CPU threads, a slice each",
     .targets = on_cpu,
     .reports_stages = false,
     .setup = set_up_vector_add_cpu_threads},
    {.name = "gpu_transfers",
     .description = "pageable copies to the device and back around the kernel",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .reports_stages = false,
     .setup = set_up_vector_add_gpu_transfers,
     .floor = vector_add_transfers_floor},
    {.name = "gpu_transfers_pinned",
     .description = "pinned copies to the device and back around the kernel",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .reports_stages = false,
     .setup = set_up_vector_add_gpu_transfers_pinned,
     .floor = vector_add_transfers_pinned_floor},
    {.name = "gpu_resident",
     .description = "the kernel alone, the data already on the device",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .reports_stages = false,
     .setup = set_up_vector_add_gpu_resident,
     .floor = vector_add_resident_floor},
};

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

variant_table<vector_add_point, vector_add_case> vector_add_variants() {
  return rows;
}

}  // namespace handoff::patterns::elementwise
