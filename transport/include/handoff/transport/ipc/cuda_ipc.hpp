#pragma once
// Legacy CUDA IPC: a device range travels to another process as a memory handle plus an event
// handle, zero copy. The exporter shares the whole cudaMalloc allocation and says where in it the
// range lies; the importer maps each allocation once and makes its stream wait on the exporter's
// event, so it reads only what the producer finished writing.
//
// Lifetimes the caller keeps: the exporter (its event) outlives every importer's use of a record,
// and an importer forgets an allocation, with no work of its own still touching it, before the
// exporter frees it. cudaIpcOpenMemHandle refuses a handle exported by its own process, so the two
// sides are always different processes. Neither class is thread-safe: one thread uses each.

#include <cuda_runtime_api.h>

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <type_traits>

#include "handoff/stream.hpp"
#include "handoff/transport/ipc/ipc_errors.hpp"

namespace handoff::transport {

// Sent as is with connection::send_record.
struct ipc_export_record {
  cudaIpcMemHandle_t memory;
  cudaIpcEventHandle_t event;
  std::uint64_t allocation_id;  // the exporter's unique id for the base allocation
  std::uint64_t offset;         // of the exported range from the allocation's base
  std::uint64_t bytes;
};
static_assert(std::is_trivially_copyable_v<ipc_export_record>);

// Producer side: one per process and device.
class ipc_exporter {
 public:
  explicit ipc_exporter(int device);

  // Exports [device_pointer, device_pointer + bytes), which may lie inside a larger cudaMalloc
  // allocation, and records the exporter's event on stream, after the producer's writes queued
  // there; a stream with nothing pending gets no record, as its writes are done. Memory legacy
  // IPC cannot share is ipc_unsupported_memory.
  ipc_export_record export_range(const void* device_pointer, std::size_t bytes,
                                 cudaStream_t stream);

  // Allocations whose memory handle is cached.
  std::size_t cached_handles() const noexcept { return handles_.size(); }

 private:
  int device_;
  event event_;
  cudaIpcEventHandle_t event_handle_{};
  std::map<std::uint64_t, cudaIpcMemHandle_t> handles_;  // by allocation id
};

// Consumer side.
class ipc_importer {
 public:
  explicit ipc_importer(int device);
  ipc_importer(const ipc_importer&) = delete;
  ipc_importer& operator=(const ipc_importer&) = delete;
  // Closes every mapping and event still open.
  ~ipc_importer();

  // Maps the record's allocation (once: a mapping already open is reused), makes stream wait on
  // the exporter's event, and returns the range's address in this process. The mapping is
  // writable. A record whose range lies outside the allocation is ipc_record_invalid.
  std::byte* open(const ipc_export_record& record, cudaStream_t stream);

  // Unmaps the record's allocation, as the exporter is about to free it. Work that uses the
  // mapping must have finished. A record not open is ignored.
  void forget(const ipc_export_record& record);

  std::size_t open_handles() const noexcept { return mappings_.size(); }
  std::size_t open_events() const noexcept { return events_.size(); }

 private:
  using handle_bytes = std::array<char, CUDA_IPC_HANDLE_SIZE>;
  struct allocation_key {
    std::uint64_t allocation_id;
    handle_bytes handle;
    auto operator<=>(const allocation_key&) const = default;
  };
  struct mapping {
    std::byte* base;
    std::size_t bytes;
  };

  static allocation_key key_of(const ipc_export_record& record) noexcept;
  mapping& map_allocation(const ipc_export_record& record);
  cudaEvent_t open_event(const ipc_export_record& record);

  int device_;
  std::map<allocation_key, mapping> mappings_;
  std::map<handle_bytes, cudaEvent_t> events_;
};

}  // namespace handoff::transport
