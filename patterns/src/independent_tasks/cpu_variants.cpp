#include "handoff/patterns/independent_tasks/cpu_variants.hpp"

#include <algorithm>
#include <array>
#include <numeric>
#include <optional>

#include "handoff/wall_clock.hpp"
#include "variant_rows.hpp"

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"

namespace handoff::patterns::independent_tasks {

float cpu_sum_of_squares(std::span<const float> values) noexcept {
  constexpr std::size_t lanes = 8;
  std::array<double, lanes> sums{};
  const std::size_t whole = values.size() - values.size() % lanes;
  for (std::size_t index = 0; index < whole; index += lanes) {
    for (std::size_t lane = 0; lane < lanes; ++lane) {
      const double value = values[index + lane];
      sums[lane] += value * value;
    }
  }
  for (std::size_t index = whole; index < values.size(); ++index) {
    const double value = values[index];
    sums[0] += value * value;
  }
  return static_cast<float>(std::accumulate(sums.begin(), sums.end(), 0.0));
}

cpu_serial::cpu_serial(const dataset_batch& batch) : batch_(&batch), sums_(batch.size()) {}

void cpu_serial::poison_output() {
  reference::poison(sums_);
}

void cpu_serial::run() {
  for (std::size_t index = 0; index < sums_.size(); ++index)
    sums_[index] = cpu_sum_of_squares(batch_->dataset(index));
}

cpu_threads::cpu_threads(const dataset_batch& batch) : batch_(&batch), sums_(batch.size()) {}

void cpu_threads::poison_output() {
  reference::poison(sums_);
}

void cpu_threads::run() {
  const std::size_t datasets = sums_.size();
  const std::size_t mean_elements = datasets == 0 ? 0 : batch_->total_elements() / datasets;
  const std::size_t datasets_per_thread =
      std::max<std::size_t>(1, reference::parallel_grain / std::max<std::size_t>(1, mean_elements));
  threads_used_ = reference::parallel_for(
      datasets,
      [this](std::size_t begin, std::size_t end) {
        for (std::size_t index = begin; index < end; ++index)
          sums_[index] = cpu_sum_of_squares(batch_->dataset(index));
      },
      reference::default_thread_count(), datasets_per_thread);
}

}  // namespace handoff::patterns::independent_tasks

// The sessions of the CPU references. No floor, like the elementwise ones: no ceiling of the suite
// bounds a loop over data that may sit in cache, on one thread or several. A whole run is their
// kernel stage. The variant is built on the first run (the driver's untimed warm-up) over the
// case's datasets, and its sums are verified where it wrote them.
namespace handoff::patterns::independent_tasks {
namespace {

template <class Variant>
class cpu_session final : public session<task_case> {
 public:
  run_result run(task_case& work) override {
    if (!variant_ || batch_ != &work.batch()) {
      variant_.emplace(work.batch());
      batch_ = &work.batch();
    }
    const auto start = wall_clock::now();
    variant_->run();
    return {.seconds = 0, .stages = {.kernel = seconds_since(start)}};
  }
  void poison(task_case& work) override {
    work.poison();
    if (variant_) variant_->poison_output();
  }
  reference::verification_result verify(const task_case& work) const override {
    return variant_ ? work.verify(variant_->result()) : work.verify();
  }
  // A whole run is the kernel stage, as these rows always reported it; the few nanoseconds of the
  // call around it are not a wait.
  stages_of_a_run stages_per_run(const stage_times& reported, double) override {
    return {.stages = reported, .span_the_run = true};
  }
  std::vector<named_figure> figures() const override {
    std::vector<named_figure> figures;
    if constexpr (requires(const Variant& variant) { variant.threads_used(); }) {
      if (variant_)
        figures.push_back({"worker_threads", static_cast<double>(variant_->threads_used())});
    }
    return figures;
  }

 private:
  std::optional<Variant> variant_;
  const dataset_batch* batch_ = nullptr;
};

}  // namespace

task_session set_up_cpu_serial(const task_point&, compute_target) {
  return std::make_unique<cpu_session<cpu_serial>>();
}

task_session set_up_cpu_threads(const task_point&, compute_target) {
  return std::make_unique<cpu_session<cpu_threads>>();
}

constinit const task_row cpu_serial_variant{.name = "cpu_serial",
                                            .description = "every dataset summed on one CPU thread",
                                            .targets = cpu_only,
                                            .clock = clock_kind::wall,
                                            .cold = cold_kind::none,
                                            .setup = set_up_cpu_serial,
                                            .threads = host_threads::calling_only};

constinit const task_row cpu_threads_variant{.name = "cpu_threads",
                                             .description = "the datasets summed by CPU threads",
                                             .targets = cpu_only,
                                             .clock = clock_kind::wall,
                                             .cold = cold_kind::none,
                                             .setup = set_up_cpu_threads};

}  // namespace handoff::patterns::independent_tasks
