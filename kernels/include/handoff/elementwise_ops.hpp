#pragma once
// Seed 002's elementwise kernels, enqueued on a stream; each returns at once.
//   launch_square:           out[i] = x[i] * x[i]
//   launch_neg_b_over_a:     out[i] = -b[i] / a[i], IEEE division rounded to nearest (__fdiv_rn,
//                            whatever the compiler flags), so it matches the CPU exactly
//   launch_add_row_bias:     y[i * cols + j] += bias[i], the column bias of y = W x + b added after
//                            the GEMM, as one rounding per element

#include <cuda_runtime_api.h>

#include <cstddef>

namespace handoff {

void launch_square(const float* x, float* out, std::size_t count, cudaStream_t stream);

void launch_neg_b_over_a(const float* a, const float* b, float* out, std::size_t count,
                         cudaStream_t stream);

void launch_add_row_bias(float* y, const float* bias, std::size_t rows, std::size_t cols,
                         cudaStream_t stream);

}  // namespace handoff
