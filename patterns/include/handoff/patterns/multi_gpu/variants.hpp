#pragma once
// The multi_gpu pattern (seed 004) as a table of variants: an array split over GPUs, a user kernel
// (the article's RawKernel) run on each part, and the results gathered. The variants are the
// gathers (and kernel_only, no gather: the scaling figure), each row saying what it does; the
// table's order is patterns/src/multi_gpu/variants.def.
// A Point is a configuration (workload, GPU count, partitioner, size) and a scope: the gather alone
// (the results already on the devices), resident (kernel and gather, the input already on the
// devices) or from_host (each part uploaded first; host_gather uploads from pageable memory, as
// the article does). Every variant times itself (clock_kind::self): the asynchronous ones with
// CUDA events on GPU 0's stream around the whole run, host_gather with the wall clock, so that the
// figures it reports (per-GPU rates, gather bandwidth) divide by the same seconds the row reports.

#include <memory>
#include <string>
#include <string_view>

#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "handoff/patterns/multi_gpu/partitioned_setup.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::multi_gpu {

struct multi_gpu_point {
  partitioned_config config;
  run_scope scope = run_scope::resident;
  // At the pattern's headline size on this machine, where every variant is measured; the smaller
  // sizes are kernel_only's scaling curve. Each row's measured_at says which points it has.
  bool headline = true;
  bool operator==(const multi_gpu_point&) const = default;
};

// The work of one Point: the configuration's shared setup, and what its scope poisons. The outputs
// of the Case are the devices' own (kernel_only's results, where they lie); the gathers' copies
// are their sessions', which poison and verify them too.
class multi_gpu_case {
 public:
  multi_gpu_case(std::shared_ptr<partitioned_setup> setup, run_scope scope);

  // The devices' outputs unless the scope is gather (the gather then reads them), and their
  // inputs when the run uploads them (a part that is not uploaded then shows in the result).
  void poison();
  // Each part where it lies on its device, against the reference.
  reference::verification_result verify() const;

  partitioned_setup& setup() const noexcept { return *setup_; }
  const std::shared_ptr<partitioned_setup>& shared_setup() const noexcept { return setup_; }
  run_scope scope() const noexcept { return scope_; }

 private:
  std::shared_ptr<partitioned_setup> setup_;
  run_scope scope_;
};

std::unique_ptr<multi_gpu_case> make_multi_gpu_case(const multi_gpu_point& at);

// How a row runs with one process per GPU (handoff_bench_mpi): whether it does, and the gather it
// makes there, where NCCL's communicator spans the ranks instead of one process's devices.
struct across_ranks {
  bool runs = false;
  gather_kind gather = gather_kind::none;
  nccl_result_memory memory = nccl_result_memory::device;
};

using multi_gpu_row = variant_row<multi_gpu_point, multi_gpu_case, across_ranks>;
variant_table<multi_gpu_point, multi_gpu_case, across_ranks> multi_gpu_variants();

// Why this build and machine cannot run variant on gpus GPUs, as its row says (p2p_gather without
// peer access, nccl_allgather without NCCL, nccl_allgather_window without NCCL 2.27); empty when
// it can.
std::string multi_gpu_unavailable_reason(std::string_view variant, int gpus);

}  // namespace handoff::patterns::multi_gpu
