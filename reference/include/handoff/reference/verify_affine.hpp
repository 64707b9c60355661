#pragma once
// The oracle and the tolerance for seed 002's y = W x + b: Y = W X + b for square n x n row-major
// matrices, with the bias b a column of n values broadcast across Y's columns.
//
// A float GEMM cannot match a reference exactly: each element is a K-term dot product, and
// cuBLAS, OpenBLAS and a blocked loop each sum in their own order. What every order shares is the
// worst-case bound for a float dot product (Higham, Accuracy and Stability of Numerical
// Algorithms, section 3.1; it holds for any summation order, with or without FMA):
//   |fl(sum_k w_ik x_kj) - sum_k w_ik x_kj| <= gamma_K * sum_k |w_ik| |x_kj|,
//   gamma_K = K u / (1 - K u), u = 2^-24.
// Adding the bias after the dot product rounds once more, by at most u |s + b_i|. The tolerance
// per element is therefore
//   |y_ij - y_ref_ij| <= c K u * sum_k |w_ik| |x_kj| + eps |b_i|,   eps = 2^-23 = 2u,
// with c = 2: gamma_K + u <= 2 K u for every K >= 1 while K u < 1/2, so the bound covers the dot
// product, the bias addition's rounding of the sum, and the double-precision reference's own error
// (at most K 2^-53 of the same sum), for every summation order. It is a worst-case bound, not a
// statistical one: it accepts any correct order and rejects TF32 only where TF32's larger error
// exceeds it, which is why the variants pin cuBLAS to full FP32 math rather than rely on it.
// Every variant must add the bias after the dot product, as one rounding.

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/reference/verify.hpp"

namespace handoff::reference {

inline constexpr double affine_gamma_factor = 2.0;
inline constexpr double float_unit_roundoff = 0x1p-24;
inline constexpr double float_epsilon = 0x1p-23;

struct affine_oracle {
  std::size_t n = 0;
  std::vector<double> y;               // W X + b in double precision, row-major n x n
  std::vector<double> magnitude;       // sum_k |W_ik| |X_kj|, row-major n x n
  std::vector<double> bias_magnitude;  // |b_i|, n values

  // The largest |y_ij - y_ref_ij| accepted at the element's flat index.
  double tolerance(std::size_t index, double gamma_factor = affine_gamma_factor) const;
};

// W and X hold n * n values, bias n; any other size is std::invalid_argument.
affine_oracle affine_reference(std::size_t n, std::span<const float> w, std::span<const float> x,
                               std::span<const float> bias);

// NaN never passes. A result of the wrong size is std::invalid_argument.
verification_result verify_affine(const affine_oracle& oracle, std::span<const float> actual,
                                  double gamma_factor = affine_gamma_factor);

}  // namespace handoff::reference
