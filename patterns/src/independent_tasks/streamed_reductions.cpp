#include "device_datasets.hpp"
#include "device_floor.hpp"
#include "device_session.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "per_dataset_work.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {

streamed_reductions::streamed_reductions(const dataset_batch& batch, data_location where,
                                         unsigned streams)
    : data_(std::make_unique<device_datasets>(batch, where)),
      work_(std::make_unique<per_dataset_work>(*data_, streams)) {}

streamed_reductions::~streamed_reductions() = default;

cudaStream_t streamed_reductions::stream() const noexcept {
  return data_->stream();
}

unsigned streamed_reductions::streams() const noexcept {
  return work_->branches();
}

void streamed_reductions::poison_output() {
  data_->poison();
}

void streamed_reductions::enqueue() {
  work_->enqueue();
}

std::vector<float> streamed_reductions::result() {
  return data_->result();
}

}  // namespace handoff::patterns::independent_tasks

namespace handoff::patterns::independent_tasks {

task_session set_up_streams(const task_point& at, compute_target) {
  return std::make_unique<whole_run_session<streamed_reductions>>(
      at, [](const streamed_reductions& variant) {
        return std::vector<named_figure>{{"streams", static_cast<double>(variant.streams())}};
      });
}

task_floor streams_floor(const task_point& at, compute_target, const measured_run&) {
  return device_variant_floor(at, static_cast<double>(at.datasets), true);
}

constinit const task_row streams_variant{
    .name = "streams",
    .description = "one process, the datasets spread over several streams",
    .targets = device_only,
    .clock = clock_kind::cuda_events,
    .cold = cold_kind::none,
    .setup = set_up_streams,
    .floor = streams_floor};

}  // namespace handoff::patterns::independent_tasks
