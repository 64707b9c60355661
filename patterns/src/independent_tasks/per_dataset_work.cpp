#include "per_dataset_work.hpp"

#include <stdexcept>

#include "handoff/cuda_check.hpp"
#include "handoff/sum_of_squares.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

unsigned checked_branches(unsigned branches) {
  if (branches == 0) throw std::invalid_argument("per-dataset reductions need at least 1 stream");
  return branches;
}

std::size_t temp_total(const device_datasets& data, std::vector<std::size_t>& at,
                       std::vector<std::size_t>& bytes) {
  std::size_t total = 0;
  for (std::size_t index = 0; index < data.datasets(); ++index) {
    at.push_back(total);
    bytes.push_back(sum_of_squares_temp_bytes(data.elements(index)));
    total += aligned_up(bytes.back());
  }
  return total;
}

}  // namespace

per_dataset_work::per_dataset_work(const device_datasets& data, unsigned branches)
    : data_(&data),
      temp_(temp_total(data, temp_at_, temp_bytes_)),
      branches_(checked_branches(branches)) {
  joins_.reserve(branches);
  for (unsigned branch = 0; branch < branches; ++branch)
    joins_.emplace_back(cudaEventDisableTiming);
}

void per_dataset_work::enqueue_dataset(std::size_t index, cudaStream_t on) const {
  const std::size_t first = data_->first_element(index);
  const std::size_t count = data_->elements(index);
  float* values = data_->device_values() + first;
  float* sum = data_->device_sums() + index;
  const bool from_host = data_->where() == data_location::host;
  if (from_host && count > 0) {
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(values, data_->host_values() + first, count * sizeof(float),
                                       cudaMemcpyHostToDevice, on));
  }
  launch_sum_of_squares(values, count, sum, temp_.data() + temp_at_[index], temp_bytes_[index], on);
  if (from_host) {
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(data_->host_sums() + index, sum, sizeof(float),
                                       cudaMemcpyDeviceToHost, on));
  }
}

void per_dataset_work::enqueue() const {
  const cudaStream_t timed = data_->stream();
  fork_.record(timed);
  for (const auto& branch : branches_)
    HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(branch.get(), fork_.get()));
  for (std::size_t index = 0; index < data_->datasets(); ++index)
    enqueue_dataset(index, branches_[index % branches_.size()].get());
  for (std::size_t branch = 0; branch < branches_.size(); ++branch) {
    joins_[branch].record(branches_[branch].get());
    HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(timed, joins_[branch].get()));
  }
}

}  // namespace handoff::patterns::independent_tasks
