#include "handoff/transport/ipc/vmm_shareable.hpp"

#include <fcntl.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "current_device_scope.hpp"
#include "handoff/cuda_check.hpp"
#include "handoff/driver_api.hpp"
#include "handoff/fork_guard.hpp"

namespace handoff::transport {
namespace {

CUdevice driver_device(int ordinal) {
  CUdevice device = 0;
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuDeviceGet)(&device, ordinal));
  return device;
}

int driver_device_attribute(CUdevice_attribute attribute, CUdevice device) {
  int value = 0;
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuDeviceGetAttribute)(&value, attribute, device));
  return value;
}

// Fails with the reason when the device cannot create, or map, descriptor-shareable memory.
void require_descriptor_sharing(int ordinal) {
  const CUdevice device = driver_device(ordinal);
  if (!driver_device_attribute(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device)) {
    throw ipc_unsupported_device("device " + std::to_string(ordinal) +
                                 " does not support the cuMem virtual memory management API, so "
                                 "its memory cannot be shared as a file descriptor");
  }
  if (!driver_device_attribute(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED,
                               device)) {
    throw ipc_unsupported_device(
        "device " + std::to_string(ordinal) +
        " does not support POSIX file descriptor handles "
        "(CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED is 0), so its memory "
        "cannot be shared as a file descriptor; use legacy CUDA IPC instead");
  }
}

CUmemAllocationProp descriptor_shareable_properties(int device) {
  CUmemAllocationProp properties{};
  properties.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  properties.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  properties.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  properties.location.id = device;
  return properties;
}

// Sizes, offsets and alignments of cuMem mappings are whole multiples of this.
std::size_t minimum_granularity(const CUmemAllocationProp& properties) {
  std::size_t granularity = 0;
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemGetAllocationGranularity)(
      &granularity, &properties, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  return granularity;
}

// One step of a release, reported and passed over if it fails: a destructor must finish.
template <class Step>
void release_step(const char* what, Step&& step) noexcept {
  try {
    step();
  } catch (const std::exception& error) {
    std::fprintf(stderr, "handoff: releasing a cuMem mapping, %s: %s\n", what, error.what());
  }
}

}  // namespace

vmm_mapping::vmm_mapping(vmm_mapping&& other) noexcept
    : handle_(std::exchange(other.handle_, 0)),
      address_(std::exchange(other.address_, 0)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, false)) {}

vmm_mapping& vmm_mapping::operator=(vmm_mapping&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, 0);
    address_ = std::exchange(other.address_, 0);
    bytes_ = std::exchange(other.bytes_, 0);
    mapped_ = std::exchange(other.mapped_, false);
  }
  return *this;
}

vmm_mapping vmm_mapping::map(CUmemGenericAllocationHandle handle, std::size_t bytes,
                             std::size_t alignment, int device) {
  vmm_mapping mapping;
  mapping.handle_ = handle;  // owned from here, so released if a later step throws
  HANDOFF_CU_CHECK(
      HANDOFF_DRIVER_FUNCTION(cuMemAddressReserve)(&mapping.address_, bytes, alignment, 0, 0));
  mapping.bytes_ = bytes;
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemMap)(mapping.address_, bytes, 0, handle, 0));
  mapping.mapped_ = true;
  // A new mapping is accessible to no device until access is granted.
  CUmemAccessDesc access{};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemSetAccess)(mapping.address_, bytes, &access, 1));
  return mapping;
}

std::byte* vmm_mapping::data() const noexcept {
  return reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(address_));
}

void vmm_mapping::release() noexcept {
  if (mapped_) {
    release_step("cuMemUnmap",
                 [&] { HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemUnmap)(address_, bytes_)); });
  }
  if (address_ != 0) {
    release_step("cuMemAddressFree", [&] {
      HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemAddressFree)(address_, bytes_));
    });
  }
  if (handle_ != 0) {
    release_step("cuMemRelease",
                 [&] { HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemRelease)(handle_)); });
  }
  handle_ = 0;
  address_ = 0;
  bytes_ = 0;
  mapped_ = false;
}

vmm_allocation vmm_allocation::create(int device, std::size_t bytes) {
  if (bytes == 0) throw std::invalid_argument("a shareable cuMem allocation needs at least 1 byte");
  enter_cuda();
  const current_device_scope on(device);
  require_descriptor_sharing(device);
  const CUmemAllocationProp properties = descriptor_shareable_properties(device);
  const std::size_t granularity = minimum_granularity(properties);
  if (bytes > std::numeric_limits<std::size_t>::max() - (granularity - 1)) {
    throw std::invalid_argument("cannot allocate " + std::to_string(bytes) + " bytes");
  }
  const std::size_t mapped_bytes = (bytes + granularity - 1) / granularity * granularity;
  CUmemGenericAllocationHandle handle = 0;
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemCreate)(&handle, mapped_bytes, &properties, 0));
  return vmm_allocation(vmm_mapping::map(handle, mapped_bytes, granularity, device), bytes, device);
}

unique_fd vmm_allocation::export_descriptor() const {
  enter_cuda();
  int descriptor = -1;
  // For CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR the shareable handle is an int.
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemExportToShareableHandle)(
      &descriptor, mapping_.handle(), CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
  unique_fd owned(descriptor);
  // Spawned workers inherit only the descriptors they are handed, not this one by accident.
  const int flags = ::fcntl(owned.get(), F_GETFD);
  if (flags >= 0) ::fcntl(owned.get(), F_SETFD, flags | FD_CLOEXEC);
  return owned;
}

vmm_import vmm_import::open(int descriptor, std::size_t mapped_bytes, int device) {
  enter_cuda();
  const current_device_scope on(device);
  require_descriptor_sharing(device);
  CUmemGenericAllocationHandle handle = 0;
  // For descriptors the driver takes the number itself, cast to a pointer; it does not take
  // ownership of the descriptor.
  HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemImportFromShareableHandle)(
      &handle, reinterpret_cast<void*>(static_cast<std::uintptr_t>(descriptor)),
      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  std::size_t granularity = 0;
  try {
    CUmemAllocationProp properties{};
    HANDOFF_CU_CHECK(
        HANDOFF_DRIVER_FUNCTION(cuMemGetAllocationPropertiesFromHandle)(&properties, handle));
    granularity = minimum_granularity(properties);
    if (mapped_bytes == 0 || granularity == 0 || mapped_bytes % granularity != 0) {
      throw ipc_record_invalid(
          "a cuMem descriptor's mapped size must be a positive multiple of "
          "the allocation granularity (" +
          std::to_string(granularity) + " bytes); the exporter claimed " +
          std::to_string(mapped_bytes));
    }
  } catch (...) {
    release_step("cuMemRelease",
                 [&] { HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemRelease)(handle)); });
    throw;
  }
  // map() owns the handle from the call on, and releases it itself if it fails.
  return vmm_import(vmm_mapping::map(handle, mapped_bytes, granularity, device));
}

}  // namespace handoff::transport
