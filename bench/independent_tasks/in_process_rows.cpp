// independent_tasks' in-process rows: the CPU references (cpu_serial, cpu_threads) and the device
// variants (streams, batched, graph), each device variant with its datasets already on the device
// (data:resident) and with the copies in and out included (data:host). Device runs are timed with
// events on the variant's stream, CPU runs by the wall clock; both poison their outputs first.

#include <chrono>
#include <numeric>
#include <string>

#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/independent_tasks/cpu_variants.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "handoff/reference/sum_of_squares.hpp"
#include "stage_marks.hpp"
#include "task_benchmarks.hpp"
#include "task_floors.hpp"
#include "task_inputs.hpp"

namespace handoff::bench {
namespace {

namespace tasks = patterns::independent_tasks;
using tasks::data_location;

void finish_row(benchmark::State& state, const task_inputs& inputs, std::span<const float> sums,
                const patterns::stage_times& stages, double measured_seconds) {
  record_verification(state, reference::verify_reductions(inputs.expected, sums));
  set_traffic(state, inputs.bytes(), static_cast<double>(inputs.batch.total_elements()));
  set_stage_counters(state, stages, measured_seconds);
}

// The CPU references have no floor, like the elementwise ones: no ceiling of the suite bounds a
// loop over data that may sit in cache, on one thread or several. A whole run is their kernel
// stage.
template <class Variant>
Variant run_cpu_reference(benchmark::State& state, task_size size) {
  const auto& inputs = task_inputs_for(size.datasets, size.elements);
  Variant variant(inputs.batch);
  int runs = 0;
  patterns::stage_times stages;
  measure_wall_region(
      state, [&] { variant.poison_output(); },
      [&] {
        const auto start = std::chrono::steady_clock::now();
        variant.run();
        if (runs++ > 0) {
          stages.kernel +=
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
      });
  finish_row(state, inputs, variant.result(), stages, stages.kernel);
  return variant;
}

void cpu_serial(benchmark::State& state, task_size size) {
  run_cpu_reference<tasks::cpu_serial>(state, size);
}

void cpu_threads(benchmark::State& state, task_size size) {
  const auto variant = run_cpu_reference<tasks::cpu_threads>(state, size);
  state.counters["worker_threads"] = variant.threads_used();
}

// batched's steps run one after the other on one stream, so its copies and its reduction are
// stages of their own.
void batched(benchmark::State& state, task_size size, data_location where) {
  const auto& inputs = task_inputs_for(size.datasets, size.elements);
  tasks::batched_reduction variant(inputs.batch, where);
  stage_marks marks(3);
  measure_gpu_region(
      state, variant.stream(), [&] { variant.poison_output(); },
      [&] {
        marks.begin_run();
        marks.mark(0, variant.stream());
        variant.enqueue_upload();
        marks.mark(1, variant.stream());
        variant.enqueue_reduction();
        marks.mark(2, variant.stream());
        variant.enqueue_download();
        marks.mark(3, variant.stream());
      });
  const auto& spans = marks.finish();
  const patterns::stage_times stages{.h2d = spans[0], .kernel = spans[1], .d2h = spans[2]};
  finish_row(state, inputs, variant.result(), stages, stages.total());
  add_device_variant_floor(state, inputs, device_variant::batched, where);
}

// streams and graph overlap one dataset's copies with another's reduction, so a run is reported
// as one kernel stage.
template <class Variant>
void per_dataset(benchmark::State& state, Variant& variant, const task_inputs& inputs,
                 device_variant kind, data_location where) {
  stage_marks marks(1);
  measure_gpu_region(
      state, variant.stream(), [&] { variant.poison_output(); },
      [&] {
        marks.begin_run();
        marks.mark(0, variant.stream());
        variant.enqueue();
        marks.mark(1, variant.stream());
      });
  const patterns::stage_times stages{.kernel = marks.finish()[0]};
  finish_row(state, inputs, variant.result(), stages, stages.total());
  add_device_variant_floor(state, inputs, kind, where);
}

void streams(benchmark::State& state, task_size size, data_location where) {
  const auto& inputs = task_inputs_for(size.datasets, size.elements);
  tasks::streamed_reductions variant(inputs.batch, where);
  per_dataset(state, variant, inputs, device_variant::streams, where);
  state.counters["streams"] = variant.streams();
}

void graph(benchmark::State& state, task_size size, data_location where) {
  const auto& inputs = task_inputs_for(size.datasets, size.elements);
  tasks::graph_reductions variant(inputs.batch, where);
  per_dataset(state, variant, inputs, device_variant::graph, where);
  state.counters["branches"] = variant.branches();
}

std::vector<std::pair<std::string, std::string>> size_axes(task_size size) {
  return {{"datasets", std::to_string(size.datasets)}, {"elements", std::to_string(size.elements)}};
}

}  // namespace

void register_cpu_references(const bench_environment& environment) {
  using body = void (*)(benchmark::State&, task_size);
  for (const auto& size : task_sizes(environment.config)) {
    for (const auto& [variant, run] :
         {std::pair<const char*, body>{"cpu_serial", cpu_serial}, {"cpu_threads", cpu_threads}}) {
      register_benchmark(benchmark_name("independent_tasks", variant, size_axes(size)),
                         [run, size](benchmark::State& state) { run(state, size); });
    }
  }
}

void register_device_variants(const bench_environment& environment) {
  using body = void (*)(benchmark::State&, task_size, data_location);
  for (const auto& size : task_sizes(environment.config)) {
    for (const auto& [variant, run] : {std::pair<const char*, body>{"batched", batched},
                                       {"graph", graph},
                                       {"streams", streams}}) {
      for (const auto where : {data_location::resident, data_location::host}) {
        auto axes = size_axes(size);
        axes.insert(axes.begin(), {"data", std::string(tasks::data_location_name(where))});
        register_benchmark(
            benchmark_name("independent_tasks", variant, axes),
            [run, size, where](benchmark::State& state) { run(state, size, where); });
      }
    }
  }
}

}  // namespace handoff::bench
