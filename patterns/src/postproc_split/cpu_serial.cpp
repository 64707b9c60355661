// cpu_serial: one thread summing c in host memory, the best CPU reference. No floor: no ceiling of
// the suite bounds one thread reading host memory that may sit in cache.

#include "handoff/patterns/postproc_split/chunk_sum.hpp"
#include "handoff/wall_clock.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {
namespace {

class cpu_serial_session final : public session<split_case> {
 public:
  run_result run(split_case& work) override {
    const auto start = wall_clock::now();
    work.deliver(sum_chunk(work.host_c()));
    return {.seconds = 0, .stages = {.post = seconds_since(start)}};
  }
  // A whole run is the post stage, as this row always reported it; the few nanoseconds of the
  // call around it are not a wait.
  stages_of_a_run stages_per_run(const stage_times& reported, double) override {
    return {.stages = reported, .span_the_run = true};
  }
};

}  // namespace

split_session set_up_cpu_serial(const split_point&, compute_target) {
  return std::make_unique<cpu_serial_session>();
}

constinit const split_row cpu_serial_variant{
    .name = "cpu_serial",
    .description = "the vector add and its sum on one CPU thread",
    .targets = cpu_only,
    .clock = clock_kind::wall,
    .cold = cold_kind::none,
    .setup = set_up_cpu_serial,
    .threads = host_threads::calling_only};

}  // namespace handoff::patterns::postproc_split
