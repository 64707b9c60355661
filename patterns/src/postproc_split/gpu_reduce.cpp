#include "handoff/patterns/postproc_split/gpu_reduce.hpp"

#include <limits>
#include <optional>

#include "handoff/patterns/postproc_split/post_floor.hpp"
#include "handoff/wall_clock.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {

gpu_reduce::gpu_reduce(std::span<const float> device_c)
    : c_(device_c), sum_(device_c.size()), result_(1) {
  poison();
}

void gpu_reduce::poison() {
  *result_.data() = std::numeric_limits<double>::quiet_NaN();
}

double gpu_reduce::run() {
  sum_.enqueue(c_.data(), result_.data(), stream_.get());
  stream_.synchronize();
  return result();
}

// The session: the reduction is built on the first run (the driver's untimed warm-up) from where
// the case holds c, with its scratch space, outside any timed region.
//
// Floor: reading c once from device memory (4N at the device-copy rate, which counts read plus
// written bytes, so 4N read bytes cost 4N / rate) + one launch and synchronise: the region ends
// when the host holds the scalar, which is what kernel_launch_sync times for an empty kernel.
namespace {

class gpu_reduce_session final : public session<split_case> {
 public:
  run_result run(split_case& work) override {
    try {
      const auto c = work.computed().values;
      if (!reduce_ || built_for_.data() != c.data() || built_for_.size() != c.size()) {
        reduce_.reset();
        reduce_.emplace(c);
        built_for_ = c;
      }
      // The wall clock, although the work is the GPU's: the region ends when the host holds the
      // scalar, which the reduction's last kernel writes, so all of it is the kernel stage.
      const auto start = wall_clock::now();
      work.deliver(reduce_->run());
      return {.seconds = 0, .stages = {.kernel = seconds_since(start)}};
    } catch (...) {
      work.forget_runs();
      throw;
    }
  }
  void poison(split_case& work) override {
    work.poison();
    if (reduce_) reduce_->poison();
  }
  cudaStream_t stream() const override { return reduce_ ? reduce_->stream() : nullptr; }
  // A whole run is the kernel stage, as this row always reported it; the few nanoseconds of the
  // call around it are not a wait.
  stages_of_a_run stages_per_run(const stage_times& reported, double) override {
    return {.stages = reported, .span_the_run = true};
  }

 private:
  std::optional<gpu_reduce> reduce_;
  std::span<const float> built_for_;
};

}  // namespace

split_session set_up_gpu_reduce(const split_point&, compute_target) {
  return std::make_unique<gpu_reduce_session>();
}

floor_terms gpu_reduce_floor(const split_point& at, compute_target, const measured_run&) {
  return floor_terms{}
      .add_bytes(ceiling::device_copy, static_cast<double>(at.count * sizeof(float)))
      .add_events(ceiling::launch_sync, 1);
}

constinit const split_row gpu_reduce_variant{
    .name = "gpu_reduce",
    .description = "a CUB reduction on the device; only the sum comes back",
    .targets = device_only,
    .clock = clock_kind::wall,
    .cold = cold_kind::none,
    .setup = set_up_gpu_reduce,
    .floor = gpu_reduce_floor};

}  // namespace handoff::patterns::postproc_split
