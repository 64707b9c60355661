#pragma once
// nccl_allgather: every device ends with the whole array. When every device holds one equal part,
// in rank order, that is ncclAllGather itself; otherwise (array_split's uneven tail, round-robin
// chunks, weighted shares) it is the all-gather-v that NCCL users write as one broadcast per part,
// rooted at the part's device, in one group. The same code serves one process driving every device
// (communicators from ncclCommInitAll) and one MPI rank per device (a communicator from
// ncclCommInitRank, bootstrapped through MPI).

#include <nccl.h>

#include <memory>
#include <vector>

#include "handoff/patterns/multi_gpu/gathers.hpp"

namespace handoff::patterns::multi_gpu {

// One communicator per device of this process, destroyed with it.
class nccl_communicators {
 public:
  // Every device of the process, in one clique: ncclCommInitAll over the slots' CUDA devices.
  static nccl_communicators for_devices(const partitioned_devices& devices);
  // This rank's communicator of a clique spread over processes.
  static nccl_communicators for_rank(const ncclUniqueId& clique, int ranks, int rank, int ordinal);

  nccl_communicators(nccl_communicators&&) noexcept;
  nccl_communicators& operator=(nccl_communicators&&) noexcept;
  ~nccl_communicators();

  ncclComm_t operator[](std::size_t slot) const { return communicators_.at(slot); }
  std::size_t size() const noexcept { return communicators_.size(); }

  // Ends every communicator without waiting for its peers (ncclCommAbort), which also stops its
  // kernels still in flight: the tear-down after a stall, where ncclCommDestroy would wait for a
  // peer that may never arrive.
  void abort() noexcept;

 private:
  nccl_communicators() = default;
  void destroy() noexcept;
  std::vector<ncclComm_t> communicators_;
};

// True when the plan is gathered by ncclAllGather itself (else by grouped broadcasts).
bool gathers_with_all_gather(const partition_plan& plan);

// Each device's copy of the gathered array lives where memory says (gathers.hpp); a symmetric
// window (nccl_allgather_window; nccl_windows.hpp) is used where the plan's parts are equal
// (ncclAllGather; unequal parts are broadcast into ordinary memory), and the gather is then made
// in place: while it lives, each slot's kernel writes into the slot's own part of its window
// (device_slot::lent_output). It reports nccl_windows_registered (1 when NCCL returned a window
// for every device's copy, else 0) and nccl_in_place.
std::unique_ptr<device_gather> make_nccl_gather(
    partitioned_devices& devices, nccl_communicators communicators,
    nccl_result_memory memory = nccl_result_memory::device);

}  // namespace handoff::patterns::multi_gpu
