#pragma once
// Device memory shared as a POSIX file descriptor (the cuMem virtual memory API): the exporter
// creates physical memory that may be exported, maps it into a reserved address range, and hands
// out a descriptor; the importer turns the descriptor (received over SCM_RIGHTS) back into the same
// physical memory and maps it into its own address space. Unlike legacy IPC, the memory lives as
// long as any process holds a mapping or a descriptor for it.

#include <cuda.h>

#include <cstddef>
#include <utility>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/ipc/ipc_errors.hpp"

namespace handoff::transport {

// Owns what a cuMem mapping is made of, released in reverse order of creation: the mapping, the
// reserved address range, the allocation handle. Each part may be missing, so a construction that
// fails half-way releases exactly what it made.
class vmm_mapping {
 public:
  vmm_mapping() = default;
  vmm_mapping(vmm_mapping&& other) noexcept;
  vmm_mapping& operator=(vmm_mapping&& other) noexcept;
  vmm_mapping(const vmm_mapping&) = delete;
  vmm_mapping& operator=(const vmm_mapping&) = delete;
  ~vmm_mapping() { release(); }

  // Reserves an address range for the handle's first `bytes`, maps them and grants `device` read
  // and write access. Takes ownership of handle, even when it throws.
  static vmm_mapping map(CUmemGenericAllocationHandle handle, std::size_t bytes,
                         std::size_t alignment, int device);

  std::byte* data() const noexcept;
  std::size_t bytes() const noexcept { return bytes_; }
  CUmemGenericAllocationHandle handle() const noexcept { return handle_; }

 private:
  void release() noexcept;

  CUmemGenericAllocationHandle handle_ = 0;
  CUdeviceptr address_ = 0;  // the reserved range, bytes_ long
  std::size_t bytes_ = 0;
  bool mapped_ = false;
};

// Exporter side: device memory that can leave the process as a file descriptor.
class vmm_allocation {
 public:
  // bytes is rounded up to the allocation granularity (2 MiB on current GPUs). A device without
  // POSIX descriptor handles is ipc_unsupported_device.
  static vmm_allocation create(int device, std::size_t bytes);

  std::byte* data() const noexcept { return mapping_.data(); }
  std::size_t bytes() const noexcept { return bytes_; }  // as asked for
  std::size_t mapped_bytes() const noexcept { return mapping_.bytes(); }
  int device() const noexcept { return device_; }

  // A new descriptor for the memory, close-on-exec; the importer needs it and mapped_bytes().
  unique_fd export_descriptor() const;

 private:
  vmm_allocation(vmm_mapping mapping, std::size_t bytes, int device)
      : mapping_(std::move(mapping)), bytes_(bytes), device_(device) {}

  vmm_mapping mapping_;
  std::size_t bytes_ = 0;
  int device_ = -1;
};

// Importer side: another process's vmm_allocation, mapped here read/write.
class vmm_import {
 public:
  // The descriptor stays the caller's; mapped_bytes is the exporter's mapped_bytes(). Both come
  // from another process: a size that is not a whole number of granules is ipc_record_invalid,
  // and one larger than the allocation fails in the driver (cuda_error).
  static vmm_import open(int descriptor, std::size_t mapped_bytes, int device);

  std::byte* data() const noexcept { return mapping_.data(); }
  std::size_t mapped_bytes() const noexcept { return mapping_.bytes(); }

 private:
  explicit vmm_import(vmm_mapping mapping) : mapping_(std::move(mapping)) {}

  vmm_mapping mapping_;
};

}  // namespace handoff::transport
