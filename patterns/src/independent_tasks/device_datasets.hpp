#pragma once
// The device-side state every in-process variant shares: the datasets and their segment offsets in
// one pinned staging buffer and its device mirror (values first, offsets after them at a 256-byte
// boundary, so one copy moves both), the sums on the device and their pinned host copy, and the
// stream a run is timed on.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/independent_tasks/datasets.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::independent_tasks {

// Each dataset's part of a shared device allocation starts on a 256-byte boundary, the alignment
// cudaMalloc gives and CUB's temporary storage expects.
inline constexpr std::size_t device_part_alignment = 256;

constexpr std::size_t aligned_up(std::size_t bytes) {
  return (bytes + device_part_alignment - 1) / device_part_alignment * device_part_alignment;
}

class device_datasets {
 public:
  // Uploads everything once, so a resident run finds its data in place.
  device_datasets(const dataset_batch& batch, data_location where);

  data_location where() const noexcept { return where_; }
  std::size_t datasets() const noexcept { return sizes_.size(); }
  std::size_t elements(std::size_t index) const noexcept { return sizes_[index]; }
  std::size_t first_element(std::size_t index) const noexcept { return starts_[index]; }
  cudaStream_t stream() const noexcept { return stream_.get(); }

  float* device_values() const noexcept;
  const float* host_values() const noexcept;  // pinned
  const std::int64_t* device_offsets() const noexcept;
  float* device_sums() const noexcept { return device_sums_.data(); }
  float* host_sums() const noexcept { return host_sums_.data(); }  // pinned

  // Host form: the whole staging buffer (values and offsets) in one copy, on stream().
  void enqueue_upload_all() const;
  // Host form: every sum back in one copy, on stream().
  void enqueue_download_sums() const;

  // NaN bytes into the sums (device and host copies) and, in the host form, into the device copy
  // of the datasets, so a run that skipped its copy in cannot pass. Returns with stream() idle.
  void poison();

  // Waits for stream() and returns the sums where the form leaves them.
  std::vector<float> result() const;

 private:
  data_location where_;
  std::vector<std::size_t> sizes_;
  std::vector<std::size_t> starts_;
  std::size_t offsets_at_ = 0;  // byte position of the offsets in staging and mirror
  std::size_t staged_bytes_ = 0;
  handoff::stream stream_;
  pinned_buffer<std::byte> staging_;
  device_buffer<std::byte> mirror_;
  device_buffer<float> device_sums_;
  pinned_buffer<float> host_sums_;
};

}  // namespace handoff::patterns::independent_tasks
