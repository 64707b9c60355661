#pragma once
// What the driver knows about a pointer: which kind of memory it is, which allocation and pool it
// belongs to, and whether legacy CUDA IPC can share it. An exporter must know this before it asks
// for a handle, because the runtime's own failures do not say why.

#include <cstdint>

namespace handoff::transport {

struct device_pointer_facts {
  unsigned memory_type = 0;  // a CUmemorytype; 0 when the pointer is not CUDA memory
  bool managed = false;
  bool from_memory_pool = false;  // a stream-ordered allocation (cudaMallocAsync)
  bool legacy_ipc_capable = false;
  std::uint64_t allocation_id = 0;  // unique in this process, never reused
  int device_ordinal = -1;
};

// Needs the device's context current (see current_device_scope). A pointer the driver does not
// know comes back with memory_type 0 rather than an error.
device_pointer_facts inspect_device_pointer(const void* pointer);

}  // namespace handoff::transport
