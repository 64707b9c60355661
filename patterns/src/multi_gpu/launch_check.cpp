#include "handoff/patterns/multi_gpu/launch_check.hpp"

#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

std::string subject(const char* kernel, const char* argument, const void* pointer, int device) {
  char address[32];
  std::snprintf(address, sizeof(address), "%p", pointer);
  return std::string("kernel ") + kernel + " on GPU " + std::to_string(device) + ": argument '" +
         argument + "' (" + address + ")";
}

}  // namespace

void check_kernel_argument(const char* kernel, const char* argument, const void* pointer,
                           int device) {
  // The message is built only to be thrown: checked_launch runs this before every launch.
  const auto who = [&] { return subject(kernel, argument, pointer, device); };
  if (pointer == nullptr) throw kernel_argument_error(who() + " is null");
  cudaPointerAttributes attributes{};
  HANDOFF_CUDA_CHECK(cudaPointerGetAttributes(&attributes, pointer));
  switch (attributes.type) {
    case cudaMemoryTypeUnregistered:
      throw kernel_argument_error(
          who() + " is pageable host memory, which a kernel cannot read; copy the part to GPU " +
          std::to_string(device) + " first (the article's first example passes host arrays)");
    case cudaMemoryTypeHost:
      throw kernel_argument_error(
          who() +
          " is pinned host memory: a kernel would read it across PCIe element by element; "
          "copy the part to GPU " +
          std::to_string(device) + " first");
    case cudaMemoryTypeManaged:
      return;
    case cudaMemoryTypeDevice:
      break;
  }
  const int owner = attributes.device;
  if (owner == device || peer_access_enabled(device, owner)) return;
  throw kernel_argument_error(
      who() + " is memory of GPU " + std::to_string(owner) + ", and GPU " + std::to_string(device) +
      " has no peer access to it; copy the part to GPU " + std::to_string(device) +
      ", or enable peer access first (the article's second example "
      "launches a part on a device that does not hold it)");
}

void checked_launch(const user_kernel& kernel, int device, cudaStream_t stream, const float* input,
                    float* output, std::size_t count, float device_value) {
  if (count == 0) return;
  check_kernel_argument(kernel.name, "input", input, device);
  check_kernel_argument(kernel.name, "output", output, device);
  const scoped_device on_device(device);
  launch_user_kernel(kernel, input, output, count, device_value, stream);
}

}  // namespace handoff::patterns::multi_gpu
