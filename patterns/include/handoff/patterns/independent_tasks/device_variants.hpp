#pragma once
// The in-process device variants of independent_tasks, each in two forms:
//   data_location::resident  the datasets already live on the device; a run is the reductions
//                            alone, and the sums stay on the device;
//   data_location::host      a run also copies every dataset in from pinned host memory and every
//                            sum back out to pinned host memory.
// Variants:
//   batched_reduction    one segmented reduction over all datasets, in one launch (CUB's block
//                        primitives inside; host: one copy of all of them, the segment offsets
//                        riding along, and one copy of the sums back);
//   streamed_reductions  one CUB reduction per dataset, datasets round-robin over k streams (host:
//                        each dataset's copy in and its sum's copy out on its stream);
//   graph_reductions     the same per-dataset work captured once into a CUDA graph, one branch per
//                        dataset (up to max_graph_branches), and launched as one graph per run.
// Like the elementwise variants: set-up (allocations, temporary storage, graph capture) happens in
// the constructor; poison_output() and enqueue() work on stream(), so the harness times a run with
// events; result() waits and returns the sums as the user would read them, in dataset order.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <memory>
#include <string_view>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/independent_tasks/datasets.hpp"

namespace handoff::patterns::independent_tasks {

enum class data_location { resident, host };
std::string_view data_location_name(data_location where) noexcept;  // "resident" or "host"

class device_datasets;
class per_dataset_work;

class batched_reduction {
 public:
  batched_reduction(const dataset_batch& batch, data_location where);
  ~batched_reduction();
  void poison_output();
  void enqueue();  // the three steps below, one after the other
  // The steps of a run on their own, so a benchmark can put events between them. The copies do
  // nothing in the resident form.
  void enqueue_upload();
  void enqueue_reduction();
  void enqueue_download();
  cudaStream_t stream() const noexcept;
  std::vector<float> result();

 private:
  std::unique_ptr<device_datasets> data_;
  std::size_t longest_dataset_ = 0;
  device_buffer<std::byte> temp_;  // the reduction's partial sums, allocated once
};

inline constexpr unsigned default_stream_count = 8;

class streamed_reductions {
 public:
  // streams == 0 is std::invalid_argument.
  streamed_reductions(const dataset_batch& batch, data_location where,
                      unsigned streams = default_stream_count);
  ~streamed_reductions();
  void poison_output();
  void enqueue();
  cudaStream_t stream() const noexcept;
  std::vector<float> result();
  unsigned streams() const noexcept;

 private:
  std::unique_ptr<device_datasets> data_;
  std::unique_ptr<per_dataset_work> work_;
};

inline constexpr unsigned max_graph_branches = 128;

class graph_reductions {
 public:
  graph_reductions(const dataset_batch& batch, data_location where);
  ~graph_reductions();
  void poison_output();
  void enqueue();  // one cudaGraphLaunch
  cudaStream_t stream() const noexcept;
  std::vector<float> result();
  unsigned branches() const noexcept;

 private:
  struct captured;
  std::unique_ptr<device_datasets> data_;
  std::unique_ptr<per_dataset_work> work_;
  std::unique_ptr<captured> graph_;
};

}  // namespace handoff::patterns::independent_tasks
