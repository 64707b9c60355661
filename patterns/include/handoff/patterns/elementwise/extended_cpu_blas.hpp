#pragma once
// cpu_blas: y = W x + b through OpenBLAS, the library a NumPy user's W @ x + b ends up in. Built
// only when CMake found OpenBLAS (HANDOFF_HAVE_OPENBLAS is then defined for every target that
// links handoff_patterns); without it the variant does not exist and is not registered.

#ifdef HANDOFF_HAVE_OPENBLAS

#include <span>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"

namespace handoff::patterns::elementwise {

// cblas_sgemm with beta = 0 (OpenBLAS's own threads), then the bias added row by row as a second
// pass, so the bias is one rounding after the dot product as the affine tolerance assumes. Only the
// affine workload; any other is std::invalid_argument.
class elementwise_cpu_blas {
 public:
  explicit elementwise_cpu_blas(extended_problem problem);
  // Waits until OpenBLAS's threads sleep: they spin on after every call, and would run beside
  // whatever this process measures next.
  ~elementwise_cpu_blas();
  elementwise_cpu_blas(const elementwise_cpu_blas&) = delete;
  elementwise_cpu_blas& operator=(const elementwise_cpu_blas&) = delete;
  void poison_output();
  void run();
  std::span<const float> result() const { return out_; }

 private:
  extended_problem problem_;
  std::vector<float> out_;
};

}  // namespace handoff::patterns::elementwise

#endif  // HANDOFF_HAVE_OPENBLAS
