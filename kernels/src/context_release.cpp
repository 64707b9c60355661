#include "handoff/context_release.hpp"

#include <cuda_runtime.h>
#include <unistd.h>

#include <atomic>

#include "handoff/driver_api.hpp"

namespace handoff {
namespace {

// The process that made an event for CUDA IPC; a forked child inherits the value and so sees that
// the event is not its own.
std::atomic<pid_t> ipc_event_made_in{0};

// cudaSetDevice creates a primary context where none is active; asking the driver first keeps the
// way out from paying for a context on a GPU this process never used.
bool primary_context_active(int ordinal) {
  CUdevice device = 0;
  if (HANDOFF_DRIVER_FUNCTION(cuDeviceGet)(&device, ordinal) != CUDA_SUCCESS) return false;
  unsigned int flags = 0;
  int active = 0;
  if (HANDOFF_DRIVER_FUNCTION(cuDevicePrimaryCtxGetState)(device, &flags, &active) != CUDA_SUCCESS)
    return false;
  return active != 0;
}

}  // namespace

void note_ipc_event_made() noexcept {
  ipc_event_made_in.store(::getpid());
}

void release_ipc_contexts() noexcept {
  if (ipc_event_made_in.load() != ::getpid()) return;
  try {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      if (primary_context_active(ordinal) && cudaSetDevice(ordinal) == cudaSuccess)
        (void)cudaDeviceReset();
    }
  } catch (...) {
    // The driver could not name a function: the contexts end with the process and leave their
    // file, as before this release existed.
  }
  (void)cudaGetLastError();
}

}  // namespace handoff
