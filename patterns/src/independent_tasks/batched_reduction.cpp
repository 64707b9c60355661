#include "device_datasets.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "handoff/sum_of_squares.hpp"

namespace handoff::patterns::independent_tasks {

batched_reduction::batched_reduction(const dataset_batch& batch, data_location where)
    : data_(std::make_unique<device_datasets>(batch, where)),
      temp_(segmented_sum_of_squares_temp_bytes(batch.size())) {}

batched_reduction::~batched_reduction() = default;

cudaStream_t batched_reduction::stream() const noexcept {
  return data_->stream();
}

void batched_reduction::poison_output() {
  data_->poison();
}

void batched_reduction::enqueue() {
  enqueue_upload();
  enqueue_reduction();
  enqueue_download();
}

void batched_reduction::enqueue_upload() {
  if (data_->where() == data_location::host) data_->enqueue_upload_all();
}

void batched_reduction::enqueue_reduction() {
  launch_segmented_sum_of_squares(data_->device_values(), data_->device_offsets(),
                                  data_->datasets(), data_->device_sums(), temp_.data(),
                                  temp_.size(), data_->stream());
}

void batched_reduction::enqueue_download() {
  if (data_->where() == data_location::host) data_->enqueue_download_sums();
}

std::vector<float> batched_reduction::result() {
  return data_->result();
}

}  // namespace handoff::patterns::independent_tasks
