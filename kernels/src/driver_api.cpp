#include "handoff/driver_api.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <string>

#include "handoff/cuda_check.hpp"

namespace handoff {
namespace {

std::string describe_lookup_failure(const char* symbol, cudaError_t status,
                                    cudaDriverEntryPointQueryResult found) {
  std::string message = std::string("driver function ") + symbol + " is unavailable: ";
  if (status != cudaSuccess) {
    return message + "cudaGetDriverEntryPointByVersion failed with " + cudaGetErrorName(status) +
           " (" + cudaGetErrorString(status) + "); is an NVIDIA driver installed?";
  }
  if (found == cudaDriverEntryPointVersionNotSufficent) {
    return message + "the installed driver is older than CUDA " +
           std::to_string(CUDA_VERSION / 1000) + "." + std::to_string(CUDA_VERSION % 1000 / 10) +
           ", the toolkit this was built with";
  }
  return message + "the driver does not export it";
}

}  // namespace

void* driver_entry_point(const char* symbol) {
  static std::mutex lock;
  static std::map<std::string, void*, std::less<>> resolved;
  const std::scoped_lock guard(lock);
  if (const auto known = resolved.find(symbol); known != resolved.end()) return known->second;

  void* entry = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(symbol, &entry, CUDA_VERSION, cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess || entry == nullptr) {
    (void)cudaGetLastError();  // the failed lookup must not poison later runtime calls
    throw cuda_error(describe_lookup_failure(symbol, status, found),
                     static_cast<int>(status != cudaSuccess ? status : cudaErrorSymbolNotFound));
  }
  resolved.emplace(symbol, entry);
  return entry;
}

void report_driver_error_noexcept(CUresult status, const char* call, const char* file,
                                  int line) noexcept {
  if (status == CUDA_SUCCESS) return;
  try {
    std::fprintf(stderr, "handoff: %s\n",
                 describe_driver_failure(status, call, file, line).c_str());
  } catch (const std::exception&) {
    std::fprintf(stderr, "handoff: %s:%d: %s failed: CUresult %d\n", file, line, call,
                 static_cast<int>(status));
  }
}

}  // namespace handoff
