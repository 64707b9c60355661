#include "handoff/patterns/pool_prep/cpu_serial.hpp"

#include <stdexcept>

#include "batch_session.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/wall_clock.hpp"
#include "rows.hpp"

namespace handoff::patterns::pool_prep {

stage_times cpu_serial::run(const batch& work, std::span<float> out) {
  check_batch(work);
  if (out.size() != work.total_elements) {
    throw std::invalid_argument("pool_prep cpu_serial: the output must hold the whole batch");
  }
  a_.resize(work.max_chunk_elements());
  b_.resize(work.max_chunk_elements());
  stage_times stages;
  for (std::size_t index = 0; index < work.chunks; ++index) {
    const auto extent = work.chunk(index);
    const std::span a = std::span(a_).first(extent.count);
    const std::span b = std::span(b_).first(extent.count);
    auto start = wall_clock::now();
    reference::prepare_vector_add_chunk(work.seeds, extent.offset, a, b);
    stages.prep += seconds_since(start);
    start = wall_clock::now();
    reference::add_chunk_on_this_thread(a, b, out.subspan(extent.offset, extent.count));
    stages.kernel += seconds_since(start);
  }
  return stages;
}

namespace {

// The cpu_serial row: one thread, no pool, so it reports 1 worker.
class cpu_serial_session final : public batch_session {
 public:
  explicit cpu_serial_session(const point& at)
      : batch_session(output_memory::pageable, 1, at.elements) {}
  run_result run(batch_case& work) override {
    return {.stages = serial_.run(work.inputs(), output_of(work))};
  }

 private:
  cpu_serial serial_;
};

}  // namespace

batch_session_ptr set_up_cpu_serial(const point& at, compute_target) {
  return std::make_unique<cpu_serial_session>(at);
}

constinit const row cpu_serial_variant{
    .name = "cpu_serial",
    .description = "every chunk prepared and added on one CPU thread",
    .targets = cpu_only,
    .clock = clock_kind::wall,
    .cold = cold_kind::none,
    .setup = set_up_cpu_serial,
    .floor = cpu_serial_floor,
    .threads = host_threads::calling_only};

}  // namespace handoff::patterns::pool_prep
