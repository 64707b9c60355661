#pragma once
// A move-only cuBLAS handle, and the check for cuBLAS's own status codes.

#include <memory>
#include <type_traits>

#include "cublas_library.hpp"

namespace handoff::patterns::elementwise {

void throw_on_cublas_error(cublasStatus_t status, const char* call, const char* file, int line);

#define HANDOFF_CUBLAS_CHECK(call) \
  ::handoff::patterns::elementwise::throw_on_cublas_error((call), #call, __FILE__, __LINE__)

// Bound to one stream, in full FP32: CUBLAS_PEDANTIC_MATH rules out TF32 and every other
// reduced-precision path, even under NVIDIA_TF32_OVERRIDE, so the affine tolerance's assumption of
// float products holds.
class cublas_handle {
 public:
  explicit cublas_handle(cudaStream_t stream);
  cublasHandle_t get() const noexcept { return handle_.get(); }

 private:
  struct destroy {
    void operator()(cublasHandle_t handle) const noexcept;
  };
  std::unique_ptr<std::remove_pointer_t<cublasHandle_t>, destroy> handle_;
};

}  // namespace handoff::patterns::elementwise
