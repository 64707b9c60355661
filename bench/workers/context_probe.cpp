#include "context_probe.hpp"

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <string>

namespace handoff::bench {

std::string context_probe_success_line(int device_count) {
  return "ok " + std::to_string(device_count) + "\n";
}

int run_context_probe() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status == cudaSuccess) status = cudaFree(nullptr);  // forces context creation
  const std::string line = status == cudaSuccess
                               ? context_probe_success_line(count)
                               : std::string("error ") + cudaGetErrorName(status) + "\n";
  const bool written =
      ::write(STDOUT_FILENO, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  return status == cudaSuccess && written ? 0 : 1;
}

}  // namespace handoff::bench
