#pragma once
// The device side both GPU variants share: a stream, one device buffer per input and one for the
// output, the cuBLAS handle for affine, and events that mark the boundaries between the stages of
// the latest enqueue.

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "cublas_handle.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/patterns/stage_times.hpp"
#include "handoff/stream.hpp"

namespace handoff::patterns::elementwise {

class device_workload {
 public:
  explicit device_workload(const extended_problem& problem);

  cudaStream_t stream() const noexcept { return stream_.get(); }
  void upload(const extended_problem& problem);  // every input, pageable host to device
  void compute();                                // the kernel, or cuBLAS and the bias kernel
  void download(std::span<float> out);           // the output, device to pageable host
  void poison_output();                          // the device output; synchronizes

  // Stage boundaries on the stream: mark(before_h2d) ... mark(after_d2h), in order.
  enum boundary : std::size_t { before_h2d, after_h2d, after_kernel, after_d2h, boundaries };
  void mark(boundary at) { marks_[at].record(stream()); }
  // The stages between the marks of the latest enqueue; a stage whose marks were not both recorded
  // in it counts 0. Waits for the last mark.
  stage_times stages(bool with_transfers) const;

 private:
  handoff::stream stream_;
  extended_workload workload_;
  std::size_t order_;
  std::size_t count_;
  std::vector<device_buffer<float>> inputs_;
  device_buffer<float> output_;
  std::optional<cublas_handle> blas_;
  std::array<event, boundaries> marks_;
};

}  // namespace handoff::patterns::elementwise
