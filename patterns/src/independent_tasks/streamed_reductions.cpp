#include "device_datasets.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "per_dataset_work.hpp"

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
