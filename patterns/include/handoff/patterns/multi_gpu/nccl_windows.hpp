#pragma once
// Each device's copy of an all-gather's result in an NCCL symmetric window: memory from
// ncclMemAlloc, registered with that device's communicator (ncclCommWindowRegister,
// NCCL_WIN_COLL_SYMMETRIC). Into registered receive buffers NCCL 2.27 and later may gather with
// its symmetric kernels, and NCCL 2.28 under NCCL_CTA_POLICY=2 (zero CTAs) with the copy engines;
// which path a collective takes is NCCL's choice, by its version, the topology and whether the
// send buffer is registered too (the gather is made in place so that it is: nccl_gather.hpp), and
// NCCL logs it under NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=TUNING ("AllGather [Symmetric]",
// "[Copy Engine]").
// A window handle for every copy (all_registered) means NCCL took the memory, not that it took
// either path: without symmetric memory it may register the buffer locally.

#include <nccl.h>

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/device_buffer.hpp"

namespace handoff::patterns::multi_gpu {

class nccl_communicators;

struct nccl_memory {
  static void* allocate(std::size_t bytes);
  struct release {
    void operator()(void* pointer) const noexcept;
  };
};

class nccl_symmetric_windows {
 public:
  // elements floats on each device of ordinals, registered with the communicator of the same
  // index, all in one NCCL group: registration is collective over the communicators. Throws
  // nccl_error where the loaded NCCL has no windows (nccl_windows_unavailable_reason).
  nccl_symmetric_windows(const nccl_communicators& communicators, std::span<const int> ordinals,
                         std::size_t elements);
  nccl_symmetric_windows(const nccl_symmetric_windows&) = delete;
  nccl_symmetric_windows& operator=(const nccl_symmetric_windows&) = delete;
  // Deregisters every window before its memory is freed.
  ~nccl_symmetric_windows();

  float* data(std::size_t slot) const { return buffers_.at(slot).data(); }
  // True when NCCL returned a window for every device's buffer.
  bool all_registered() const noexcept;
  // Forgets the windows without deregistering them: for after their communicators were aborted,
  // which released the windows with them. The memory is still freed.
  void abandon() noexcept;

 private:
  void deregister() noexcept;

  std::vector<int> ordinals_;
  std::vector<ncclComm_t> communicators_;
  std::vector<cuda_buffer<float, nccl_memory>> buffers_;
  std::vector<ncclWindow_t> windows_;
};

}  // namespace handoff::patterns::multi_gpu
