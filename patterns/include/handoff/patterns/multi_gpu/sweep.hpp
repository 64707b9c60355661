#pragma once
// multi_gpu/<variant>/workload:<w>/gpus:<n>/partitioner:<p>/elements:<e>/scope:<s>: seed 004, an
// array split over GPUs, a user kernel (the article's RawKernel) run on each part, and the
// results gathered. Scopes: gather (the gather alone, its bandwidth against the peer or PCIe
// ceiling), resident (kernel and gather, the input already on the devices) and from_host (each
// part uploaded first; host_gather uploads from pageable memory, as the article does).
//
// Each row says which family its rows belong to, the fewest GPUs they need, and at which points of
// the sweep it is measured (measured_at). The workloads are those registered
// (workload_registry.hpp): the article's two, and any a user's file in HANDOFF_USER_KERNELS adds.
// Every run is verified, every copy of the result (each device's, for NCCL), against the
// workload's CPU reference within its tolerance (exactly, for the article's). Counters beyond the
// driver's: gpus (here), and the sessions' figures (figures.hpp). Scaling efficiency against
// gpus:1 is added by the bench at the end.

#include "handoff/patterns/multi_gpu/variants.hpp"
#include "handoff/patterns/pattern_benchmarks.hpp"

namespace handoff::patterns::multi_gpu {

const pattern_benchmarks<multi_gpu_point, multi_gpu_case, across_ranks>& multi_gpu_benchmarks();

// The parts of a row's name after its variant's, for the rows of one process (multi_gpu/...) and
// of one rank per GPU (multi_gpu_mpi/...) alike, so that the two compare by name.
name_axes multi_gpu_axes(const multi_gpu_point& at);

}  // namespace handoff::patterns::multi_gpu
