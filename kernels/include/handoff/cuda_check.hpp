#pragma once
// Three checks, after nvbench: one that throws, one for destructors that only reports, and one for
// the driver API. Each names the file, the line, the call as written and the CUDA error name.

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace handoff {

class cuda_error : public std::runtime_error {
 public:
  cuda_error(std::string message, int code) : std::runtime_error(std::move(message)), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

std::string describe_cuda_failure(cudaError_t status, const char* call, const char* file, int line);
std::string describe_driver_failure(CUresult status, const char* call, const char* file, int line);

void throw_on_cuda_error(cudaError_t status, const char* call, const char* file, int line);
void report_cuda_error_noexcept(cudaError_t status, const char* call, const char* file,
                                int line) noexcept;
void throw_on_driver_error(CUresult status, const char* call, const char* file, int line);

}  // namespace handoff

#define HANDOFF_CUDA_CHECK(call) ::handoff::throw_on_cuda_error((call), #call, __FILE__, __LINE__)
#define HANDOFF_CUDA_CHECK_NOEXCEPT(call) \
  ::handoff::report_cuda_error_noexcept((call), #call, __FILE__, __LINE__)
#define HANDOFF_CU_CHECK(call) ::handoff::throw_on_driver_error((call), #call, __FILE__, __LINE__)
// A launch reports configuration errors only through the last-error slot, which this reads and
// clears.
#define HANDOFF_CUDA_CHECK_LAUNCH() HANDOFF_CUDA_CHECK(cudaGetLastError())
