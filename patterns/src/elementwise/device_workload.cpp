#include "device_workload.hpp"

#include "handoff/elementwise_ops.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::elementwise {
namespace {

double seconds_between(const event& start, const event& stop) {
  return static_cast<double>(elapsed_milliseconds(start, stop)) * 1e-3;
}

}  // namespace

device_workload::device_workload(const extended_problem& problem)
    : workload_(problem.workload()),
      order_(problem.order()),
      count_(problem.output_count()),
      output_(problem.output_count()) {
  for (const auto input : problem.inputs())
    inputs_.emplace_back(input.size());
  if (workload_ == extended_workload::affine) blas_.emplace(stream());
}

void device_workload::upload(const extended_problem& problem) {
  for (std::size_t index = 0; index < inputs_.size(); ++index) {
    const auto from = problem.input(index);
    if (from.empty()) continue;
    HANDOFF_CUDA_CHECK(cudaMemcpyAsync(inputs_[index].data(), from.data(), from.size_bytes(),
                                       cudaMemcpyHostToDevice, stream()));
  }
}

void device_workload::compute() {
  switch (workload_) {
    case extended_workload::square:
      launch_square(inputs_[0].data(), output_.data(), count_, stream());
      return;
    case extended_workload::neg_b_over_a:
      launch_neg_b_over_a(inputs_[0].data(), inputs_[1].data(), output_.data(), count_, stream());
      return;
    case extended_workload::affine: {
      // cuBLAS is column-major: row-major Y = W X is column-major Y^T = X^T W^T, so X goes first.
      const int n = static_cast<int>(order_);
      const float one = 1.0f;
      const float zero = 0.0f;
      HANDOFF_CUBLAS_CHECK(cublas().sgemm(blas_->get(), CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                                          inputs_[1].data(), n, inputs_[0].data(), n, &zero,
                                          output_.data(), n));
      launch_add_row_bias(output_.data(), inputs_[2].data(), order_, order_, stream());
      return;
    }
  }
}

void device_workload::download(std::span<float> out) {
  if (out.empty()) return;
  HANDOFF_CUDA_CHECK(cudaMemcpyAsync(out.data(), output_.data(), out.size_bytes(),
                                     cudaMemcpyDeviceToHost, stream()));
}

void device_workload::poison_output() {
  if (output_.size() > 0) {
    HANDOFF_CUDA_CHECK(
        cudaMemsetAsync(output_.data(), reference::poison_byte, output_.size_bytes(), stream()));
  }
  stream_.synchronize();
}

stage_times device_workload::stages(bool with_transfers) const {
  stage_times stages;
  if (with_transfers) {
    stages.h2d = seconds_between(marks_[before_h2d], marks_[after_h2d]);
    stages.kernel = seconds_between(marks_[after_h2d], marks_[after_kernel]);
    stages.d2h = seconds_between(marks_[after_kernel], marks_[after_d2h]);
  } else {
    stages.kernel = seconds_between(marks_[after_h2d], marks_[after_kernel]);
  }
  return stages;
}

}  // namespace handoff::patterns::elementwise
