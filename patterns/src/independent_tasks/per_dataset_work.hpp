#pragma once
// One CUB reduction per dataset, fanned out from the timed stream over branch streams and joined
// back: what streamed_reductions runs live and graph_reductions captures. Each dataset has its own
// slice of temporary storage, so reductions on different branches never share any. In the host
// form each dataset's copy in and its sum's copy out go on its branch too.

#include <cstddef>
#include <vector>

#include "device_datasets.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::independent_tasks {

class per_dataset_work {
 public:
  // branches == 0 is std::invalid_argument.
  per_dataset_work(const device_datasets& data, unsigned branches);

  unsigned branches() const noexcept { return static_cast<unsigned>(branches_.size()); }

  // Dataset i on branch i % branches(); returns with every branch joined back into data.stream().
  void enqueue() const;

 private:
  void enqueue_dataset(std::size_t index, cudaStream_t on) const;

  const device_datasets* data_;
  std::vector<std::size_t> temp_at_;  // byte position of each dataset's temporary storage
  std::vector<std::size_t> temp_bytes_;
  device_buffer<std::byte> temp_;
  std::vector<handoff::stream> branches_;
  handoff::event fork_{cudaEventDisableTiming};
  std::vector<handoff::event> joins_;
};

}  // namespace handoff::patterns::independent_tasks
