#include "device_datasets.hpp"

#include <algorithm>
#include <cstring>

#include "handoff/cuda_check.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::independent_tasks {

std::string_view data_location_name(data_location where) noexcept {
  return where == data_location::resident ? "resident" : "host";
}

device_datasets::device_datasets(const dataset_batch& batch, data_location where)
    : where_(where),
      offsets_at_(aligned_up(batch.values().size_bytes())),
      staged_bytes_(offsets_at_ + batch.offsets().size_bytes()),
      staging_(staged_bytes_),
      mirror_(staged_bytes_),
      device_sums_(batch.size()),
      host_sums_(batch.size()) {
  for (std::size_t index = 0; index < batch.size(); ++index) {
    starts_.push_back(static_cast<std::size_t>(batch.offsets()[index]));
    sizes_.push_back(batch.dataset(index).size());
  }
  std::memcpy(staging_.data(), batch.values().data(), batch.values().size_bytes());
  std::memcpy(staging_.data() + offsets_at_, batch.offsets().data(), batch.offsets().size_bytes());
  enqueue_upload_all();
  stream_.synchronize();
}

float* device_datasets::device_values() const noexcept {
  return reinterpret_cast<float*>(mirror_.data());
}

const float* device_datasets::host_values() const noexcept {
  return reinterpret_cast<const float*>(staging_.data());
}

const std::int64_t* device_datasets::device_offsets() const noexcept {
  return reinterpret_cast<const std::int64_t*>(mirror_.data() + offsets_at_);
}

void device_datasets::enqueue_upload_all() const {
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(mirror_.data(), staging_.data(), staged_bytes_,
                                     cudaMemcpyHostToDevice, stream()));
}

void device_datasets::enqueue_download_sums() const {
  if (datasets() == 0) return;
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(host_sums_.data(), device_sums_.data(),
                                     device_sums_.size_bytes(), cudaMemcpyDeviceToHost, stream()));
}

void device_datasets::poison() {
  stream_.synchronize();  // nothing of an earlier run may still write what is poisoned now
  reference::poison(host_sums_.span());
  if (datasets() > 0) {
    HANDOFF_CUDA_CHECK(cudaMemsetAsync(device_sums_.data(), reference::poison_byte,
                                       device_sums_.size_bytes(), stream()));
  }
  if (where_ == data_location::host) {
    HANDOFF_CUDA_CHECK(
        cudaMemsetAsync(mirror_.data(), reference::poison_byte, staged_bytes_, stream()));
  }
  // And for the poison itself, as the other resident rows' poison does (vector add, elementwise):
  // the driver records its start event next, and a memset still running then would delay that
  // event past part of the launch's host time, which the run must pay in full.
  stream_.synchronize();
}

std::vector<float> device_datasets::result() const {
  stream_.synchronize();
  std::vector<float> sums(datasets());
  if (where_ == data_location::host) {
    std::copy(host_sums_.data(), host_sums_.data() + datasets(), sums.begin());
  } else if (!sums.empty()) {
    HANDOFF_CUDA_CHECK(cudaMemcpy(sums.data(), device_sums_.data(), device_sums_.size_bytes(),
                                  cudaMemcpyDeviceToHost));
  }
  return sums;
}

}  // namespace handoff::patterns::independent_tasks
