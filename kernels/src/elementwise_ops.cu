#include <cstdint>
#include <stdexcept>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/elementwise_ops.hpp"

namespace handoff {
namespace {

constexpr int threads_per_block = 256;

// The _rn intrinsics pin one correctly rounded operation each: no contraction into an FMA and no
// approximate division, even under --use_fast_math.
struct square_op {
  __device__ float operator()(float x) const { return __fmul_rn(x, x); }
};

struct neg_b_over_a_op {
  __device__ float operator()(float a, float b) const { return -__fdiv_rn(b, a); }
};

__global__ void square_float4(const float4* __restrict__ x, float4* __restrict__ out,
                              std::size_t count4) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count4) {
    const square_op op;
    const float4 v = x[i];
    out[i] = make_float4(op(v.x), op(v.y), op(v.z), op(v.w));
  }
}

__global__ void square_scalar(const float* __restrict__ x, float* __restrict__ out,
                              std::size_t count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = square_op{}(x[i]);
}

__global__ void neg_b_over_a_float4(const float4* __restrict__ a, const float4* __restrict__ b,
                                    float4* __restrict__ out, std::size_t count4) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count4) {
    const neg_b_over_a_op op;
    const float4 p = a[i];
    const float4 q = b[i];
    out[i] = make_float4(op(p.x, q.x), op(p.y, q.y), op(p.z, q.z), op(p.w, q.w));
  }
}

__global__ void neg_b_over_a_scalar(const float* __restrict__ a, const float* __restrict__ b,
                                    float* __restrict__ out, std::size_t count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) out[i] = neg_b_over_a_op{}(a[i], b[i]);
}

// One block row of threads per matrix row segment: blockIdx.y picks the row, so the bias is one
// load per thread and no thread divides its index.
__global__ void add_row_bias(float* __restrict__ y, const float* __restrict__ bias,
                             std::size_t cols) {
  const std::size_t row = blockIdx.y;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (col < cols) {
    float* element = y + row * cols + col;
    *element = __fadd_rn(*element, bias[row]);
  }
}

bool aligned_to_16(const void* pointer) {
  return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0;
}

unsigned blocks_for(std::size_t count) {
  return static_cast<unsigned>((count + threads_per_block - 1) / threads_per_block);
}

// The float4 kernel over the aligned bulk, the scalar kernel over the tail (or everything when a
// pointer is not 16-byte aligned).
template <class Vector, class Scalar>
void launch_split(std::size_t count, bool aligned, Vector&& vector, Scalar&& scalar) {
  if (count == 0) return;
  std::size_t scalar_begin = 0;
  if (aligned) {
    const std::size_t count4 = count / 4;
    if (count4 > 0) {
      vector(count4);
      HANDOFF_CUDA_CHECK_LAUNCH();
    }
    scalar_begin = count4 * 4;
  }
  if (count > scalar_begin) {
    scalar(scalar_begin, count - scalar_begin);
    HANDOFF_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace

void launch_square(const float* x, float* out, std::size_t count, cudaStream_t stream) {
  launch_split(
      count, aligned_to_16(x) && aligned_to_16(out),
      [&](std::size_t count4) {
        square_float4<<<blocks_for(count4), threads_per_block, 0, stream>>>(
            reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(out), count4);
      },
      [&](std::size_t begin, std::size_t tail) {
        square_scalar<<<blocks_for(tail), threads_per_block, 0, stream>>>(x + begin, out + begin,
                                                                          tail);
      });
}

void launch_neg_b_over_a(const float* a, const float* b, float* out, std::size_t count,
                         cudaStream_t stream) {
  launch_split(
      count, aligned_to_16(a) && aligned_to_16(b) && aligned_to_16(out),
      [&](std::size_t count4) {
        neg_b_over_a_float4<<<blocks_for(count4), threads_per_block, 0, stream>>>(
            reinterpret_cast<const float4*>(a), reinterpret_cast<const float4*>(b),
            reinterpret_cast<float4*>(out), count4);
      },
      [&](std::size_t begin, std::size_t tail) {
        neg_b_over_a_scalar<<<blocks_for(tail), threads_per_block, 0, stream>>>(
            a + begin, b + begin, out + begin, tail);
      });
}

void launch_add_row_bias(float* y, const float* bias, std::size_t rows, std::size_t cols,
                         cudaStream_t stream) {
  if (rows == 0 || cols == 0) return;
  // gridDim.y is at most 65535 rows; the affine workload's matrices are far smaller, and a larger
  // one is refused here rather than launched wrong.
  if (rows > 65535) {
    throw std::invalid_argument("launch_add_row_bias: at most 65535 rows, got " +
                                std::to_string(rows));
  }
  const dim3 grid(blocks_for(cols), static_cast<unsigned>(rows));
  add_row_bias<<<grid, threads_per_block, 0, stream>>>(y, bias, cols);
  HANDOFF_CUDA_CHECK_LAUNCH();
}

}  // namespace handoff
