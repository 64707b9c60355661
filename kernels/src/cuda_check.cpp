#include "handoff/cuda_check.hpp"

#include <cstdio>
#include <string>

#include "handoff/fork_guard.hpp"

namespace handoff {
namespace {

std::string location_prefix(const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: ";
}

// The driver library may be absent (no driver installed), so its error names are looked up through
// the runtime's entry-point query instead of linking libcuda.
std::string driver_error_name(CUresult status) {
  using get_error_name_fn = CUresult (*)(CUresult, const char**);
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuGetErrorName", &entry, 12000, cudaEnableDefault,
                                       &found) == cudaSuccess &&
      found == cudaDriverEntryPointSuccess && entry != nullptr) {
    const char* name = nullptr;
    if (reinterpret_cast<get_error_name_fn>(entry)(status, &name) == CUDA_SUCCESS && name) {
      return name;
    }
  }
  (void)cudaGetLastError();  // the failed lookup must not poison later runtime calls
  return "CUresult " + std::to_string(static_cast<int>(status));
}

}  // namespace

std::string describe_cuda_failure(cudaError_t status, const char* call, const char* file,
                                  int line) {
  return location_prefix(call, file, line) + cudaGetErrorName(status) + " (" +
         cudaGetErrorString(status) + ")";
}

std::string describe_driver_failure(CUresult status, const char* call, const char* file, int line) {
  return location_prefix(call, file, line) + driver_error_name(status) + " (code " +
         std::to_string(static_cast<int>(status)) + ")";
}

void throw_on_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    // In a child forked after CUDA was initialised, the failure is the fork's doing; say so, and
    // make no further CUDA call, which could hang on a lock the parent held at the fork.
    if (forked_after_cuda_initialisation()) {
      throw_cuda_used_after_fork(describe_cuda_failure(status, call, file, line),
                                 static_cast<int>(status));
    }
    // A failed call also sets the runtime's last-error slot; clear it, or the next launch check
    // would report this failure a second time.
    (void)cudaGetLastError();
    throw cuda_error(describe_cuda_failure(status, call, file, line), static_cast<int>(status));
  }
}

void report_cuda_error_noexcept(cudaError_t status, const char* call, const char* file,
                                int line) noexcept {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "handoff: %s:%d: %s failed: %s (%s)\n", file, line, call,
                 cudaGetErrorName(status), cudaGetErrorString(status));
  }
}

void throw_on_driver_error(CUresult status, const char* call, const char* file, int line) {
  if (status != CUDA_SUCCESS) {
    // As above; the error's name is not looked up, as that is itself a call into CUDA.
    if (forked_after_cuda_initialisation()) {
      throw_cuda_used_after_fork(location_prefix(call, file, line) + "CUresult " +
                                     std::to_string(static_cast<int>(status)),
                                 static_cast<int>(status));
    }
    throw cuda_error(describe_driver_failure(status, call, file, line), static_cast<int>(status));
  }
}

}  // namespace handoff
