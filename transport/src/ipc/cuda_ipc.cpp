#include "handoff/transport/ipc/cuda_ipc.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>

#include "current_device_scope.hpp"
#include "device_pointer_facts.hpp"
#include "handoff/context_release.hpp"
#include "handoff/cuda_check.hpp"
#include "handoff/driver_api.hpp"
#include "handoff/fork_guard.hpp"

namespace handoff::transport {
namespace {

// Exported handles are recomputed cheaply, so a long run that frees and allocates many buffers
// clears the cache rather than keeping ids of allocations that no longer exist.
constexpr std::size_t max_cached_handles = 4096;

std::string describe_pointer(const void* pointer) {
  std::ostringstream text;
  text << pointer;
  return text.str();
}

// The event every export records: interprocess events must not time.
event make_interprocess_event(int device) {
  const current_device_scope on(device);
  return event(cudaEventInterprocess | cudaEventDisableTiming);
}

// Why legacy IPC cannot share this memory, or empty when it can.
std::string reason_legacy_ipc_refuses(const device_pointer_facts& facts, int exporter_device) {
  if (facts.managed) {
    return "it is managed memory (cudaMallocManaged), which legacy CUDA IPC cannot share";
  }
  if (facts.memory_type == CU_MEMORYTYPE_HOST) {
    return "it is pinned host memory (cudaMallocHost / cudaHostRegister); share host memory "
           "through a shared-memory segment instead";
  }
  if (facts.memory_type != CU_MEMORYTYPE_DEVICE) {
    return "it is not CUDA device memory (host memory from malloc/new, or not an allocation the "
           "driver knows)";
  }
  if (facts.from_memory_pool) {
    return "it comes from a stream-ordered memory pool (cudaMallocAsync / "
           "cudaMallocFromPoolAsync), which legacy CUDA IPC cannot share; allocate it with "
           "cudaMalloc, or share the pool (cudaMemPoolExportToShareableHandle and "
           "cudaMemPoolExportPointer)";
  }
  if (!facts.legacy_ipc_capable) {
    return "the driver reports it is not legacy-IPC capable: memory from cuMemCreate (share it as "
           "a cuMem file descriptor instead) or from a stream-ordered pool (cudaMallocAsync) "
           "cannot travel through cudaIpcGetMemHandle";
  }
  if (facts.device_ordinal != exporter_device) {
    return "it lives on device " + std::to_string(facts.device_ordinal) +
           ", and this exporter serves device " + std::to_string(exporter_device);
  }
  return {};
}

[[noreturn]] void refuse(const void* pointer, std::size_t bytes, const std::string& reason) {
  throw ipc_unsupported_memory("cannot export " + std::to_string(bytes) + " bytes at " +
                               describe_pointer(pointer) + " through legacy CUDA IPC: " + reason);
}

bool has_pending_work(cudaStream_t stream) {
  const cudaError_t status = cudaStreamQuery(stream);
  if (status == cudaErrorNotReady) return true;
  HANDOFF_CUDA_CHECK(status);
  return false;
}

}  // namespace

ipc_exporter::ipc_exporter(int device) : device_(device), event_(make_interprocess_event(device)) {
  note_ipc_event_made();
  HANDOFF_CUDA_CHECK(cudaIpcGetEventHandle(&event_handle_, event_.get()));
}

ipc_export_record ipc_exporter::export_range(const void* device_pointer, std::size_t bytes,
                                             cudaStream_t stream) {
  enter_cuda();
  const current_device_scope on(device_);

  device_pointer_facts facts;
  try {
    facts = inspect_device_pointer(device_pointer);
  } catch (const cuda_used_after_fork&) {
    throw;
  } catch (const cuda_error& error) {
    refuse(device_pointer, bytes, std::string("the driver cannot describe it: ") + error.what());
  }
  if (const auto reason = reason_legacy_ipc_refuses(facts, device_); !reason.empty()) {
    refuse(device_pointer, bytes, reason);
  }

  // The handle names the whole allocation, so the record carries where the range lies in it.
  CUdeviceptr base = 0;
  std::size_t allocation_bytes = 0;
  const auto address = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(device_pointer));
  HANDOFF_CU_CHECK(
      HANDOFF_DRIVER_FUNCTION(cuMemGetAddressRange)(&base, &allocation_bytes, address));
  const std::uint64_t offset = address - base;
  if (address < base || offset > allocation_bytes || bytes > allocation_bytes - offset) {
    refuse(device_pointer, bytes,
           "the range runs past the end of its allocation (" + std::to_string(allocation_bytes) +
               " bytes, of which the range starts at offset " + std::to_string(offset) + ")");
  }

  auto cached = handles_.find(facts.allocation_id);
  if (cached == handles_.end()) {
    if (handles_.size() >= max_cached_handles) handles_.clear();
    cudaIpcMemHandle_t handle{};
    const cudaError_t status =
        cudaIpcGetMemHandle(&handle, reinterpret_cast<void*>(static_cast<std::uintptr_t>(base)));
    if (status != cudaSuccess) {
      (void)cudaGetLastError();
      refuse(device_pointer, bytes,
             std::string("cudaIpcGetMemHandle refused its allocation: ") +
                 cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
    }
    cached = handles_.emplace(facts.allocation_id, handle).first;
  }

  // Recording the event is GPU work in this process's context, and on a GPU that time-slices
  // between processes (no MPS) the receiver's next copy then waits for a switch of contexts each
  // way, which costs far more than the hand-off it orders, even for a zero-byte record
  // (tools/probes/ipc_handoff_probe.cu). A stream with nothing pending has finished the producer's
  // writes, and the event's last record (or none) orders the receiver correctly already.
  if (has_pending_work(stream)) event_.record(stream);
  ipc_export_record record{};
  record.memory = cached->second;
  record.event = event_handle_;
  record.allocation_id = facts.allocation_id;
  record.offset = offset;
  record.bytes = bytes;
  return record;
}

ipc_importer::ipc_importer(int device) : device_(device) {}

ipc_importer::~ipc_importer() {
  if (mappings_.empty() && events_.empty()) return;  // nothing to close: leave CUDA alone
  try {
    const current_device_scope on(device_);
    for (const auto& [key, opened] : mappings_) {
      HANDOFF_CUDA_CHECK_NOEXCEPT(cudaIpcCloseMemHandle(opened.base));
    }
    for (const auto& [key, opened] : events_) {
      HANDOFF_CUDA_CHECK_NOEXCEPT(cudaEventDestroy(opened));
    }
  } catch (const std::exception& error) {
    std::fprintf(stderr, "handoff: closing CUDA IPC imports: %s\n", error.what());
  }
}

ipc_importer::allocation_key ipc_importer::key_of(const ipc_export_record& record) noexcept {
  allocation_key key{record.allocation_id, {}};
  std::copy(std::begin(record.memory.reserved), std::end(record.memory.reserved),
            key.handle.begin());
  return key;
}

ipc_importer::mapping& ipc_importer::map_allocation(const ipc_export_record& record) {
  const allocation_key key = key_of(record);
  if (const auto open = mappings_.find(key); open != mappings_.end()) return open->second;

  void* base = nullptr;
  HANDOFF_CUDA_CHECK(cudaIpcOpenMemHandle(&base, record.memory, cudaIpcMemLazyEnablePeerAccess));
  // The record comes from another process: its offset and length are checked against what was
  // really mapped, which the driver reports.
  const auto address = static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(base));
  CUdeviceptr range_base = 0;
  std::size_t range_bytes = 0;
  const CUresult status =
      HANDOFF_DRIVER_FUNCTION(cuMemGetAddressRange)(&range_base, &range_bytes, address);
  if (status != CUDA_SUCCESS || address < range_base || address - range_base > range_bytes) {
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaIpcCloseMemHandle(base));
    HANDOFF_CU_CHECK(status);
    throw ipc_record_invalid(
        "the driver reports an address range that does not contain the "
        "CUDA IPC mapping of allocation " +
        std::to_string(record.allocation_id));
  }
  mapping opened{static_cast<std::byte*>(base), range_bytes - (address - range_base)};
  return mappings_.emplace(key, opened).first->second;
}

cudaEvent_t ipc_importer::open_event(const ipc_export_record& record) {
  handle_bytes key{};
  std::copy(std::begin(record.event.reserved), std::end(record.event.reserved), key.begin());
  if (const auto open = events_.find(key); open != events_.end()) return open->second;
  cudaEvent_t opened = nullptr;
  HANDOFF_CUDA_CHECK(cudaIpcOpenEventHandle(&opened, record.event));
  events_.emplace(key, opened);
  return opened;
}

std::byte* ipc_importer::open(const ipc_export_record& record, cudaStream_t stream) {
  enter_cuda();
  const current_device_scope on(device_);
  const bool newly_opened = !mappings_.contains(key_of(record));
  const mapping& opened = map_allocation(record);
  if (record.offset > opened.bytes || record.bytes > opened.bytes - record.offset) {
    const std::string message = "CUDA IPC record for allocation " +
                                std::to_string(record.allocation_id) + " claims a range of " +
                                std::to_string(record.bytes) + " bytes at offset " +
                                std::to_string(record.offset) + ", past the end of the " +
                                std::to_string(opened.bytes) + "-byte allocation it names";
    if (newly_opened) forget(record);
    throw ipc_record_invalid(message);
  }
  HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(stream, open_event(record), 0));
  return opened.base + record.offset;
}

void ipc_importer::forget(const ipc_export_record& record) {
  const auto open = mappings_.find(key_of(record));
  if (open == mappings_.end()) return;
  const current_device_scope on(device_);
  std::byte* const base = open->second.base;
  // Dropped from the table first: a failed close must not be retried by the destructor.
  mappings_.erase(open);
  HANDOFF_CUDA_CHECK(cudaIpcCloseMemHandle(base));
}

}  // namespace handoff::transport
