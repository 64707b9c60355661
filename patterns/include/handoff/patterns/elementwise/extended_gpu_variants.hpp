#pragma once
// The GPU variants of seed 002's workloads, shaped like the vector add's: poison_output(),
// enqueue() on stream() (the harness times it with events), result() copied to the host.
//   square, neg_b_over_a   one elementwise kernel (float4 bulk, scalar tail);
//   affine                 cublasSgemm (full FP32, no TF32) with a handle created once at
//                          construction and bound to the variant's stream, then a kernel that adds
//                          the bias column, one rounding per element.
// last_stages() gives the latest enqueue's h2d, kernel and d2h times from events recorded between
// the stages, so the table's sessions (extended_table.hpp) report them without a second clock.

#include <cuda_runtime_api.h>

#include <memory>
#include <span>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::elementwise {

class device_workload;

// The PyTorch example's shape: pageable inputs copied in, the kernel, the result copied out.
class elementwise_gpu_transfers {
 public:
  explicit elementwise_gpu_transfers(extended_problem problem);
  elementwise_gpu_transfers(elementwise_gpu_transfers&&) noexcept;
  ~elementwise_gpu_transfers();
  void poison_output();
  void enqueue();
  cudaStream_t stream() const noexcept;
  std::span<const float> result();
  stage_times last_stages() const;

 private:
  extended_problem problem_;
  std::unique_ptr<device_workload> device_;
  std::vector<float> out_;
};

// The data already lives on the device (copied at construction): only the kernel, or cuBLAS and
// the bias kernel, runs.
class elementwise_gpu_resident {
 public:
  explicit elementwise_gpu_resident(extended_problem problem);
  elementwise_gpu_resident(elementwise_gpu_resident&&) noexcept;
  ~elementwise_gpu_resident();
  void poison_output();
  void enqueue();
  cudaStream_t stream() const noexcept;
  std::span<const float> result();
  stage_times last_stages() const;

 private:
  extended_problem problem_;
  std::unique_ptr<device_workload> device_;
  std::vector<float> out_;
};

}  // namespace handoff::patterns::elementwise
