#include "cublas_handle.hpp"

#include <cstdio>
#include <string>

#include "handoff/fork_guard.hpp"

namespace handoff::patterns::elementwise {

void throw_on_cublas_error(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw cublas_error(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                     cublas().status_name(status) + " (" + cublas().status_string(status) + ")");
}

void cublas_handle::destroy::operator()(cublasHandle_t handle) const noexcept {
  const cublasStatus_t status = cublas().destroy(handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "handoff: cublasDestroy failed: %s\n", cublas().status_name(status));
  }
}

cublas_handle::cublas_handle(cudaStream_t stream) {
  enter_cuda();
  cublasHandle_t raw = nullptr;
  HANDOFF_CUBLAS_CHECK(cublas().create(&raw));
  handle_.reset(raw);
  HANDOFF_CUBLAS_CHECK(cublas().set_stream(raw, stream));
  HANDOFF_CUBLAS_CHECK(cublas().set_math_mode(raw, CUBLAS_PEDANTIC_MATH));
}

}  // namespace handoff::patterns::elementwise
