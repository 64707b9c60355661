#pragma once
// The floors of the multi_gpu rows, from the plan: what each device must move over which link.
// Devices work at the same time, so a per-device stage is priced at the busiest device's share;
// the article's host_gather works one device after the other, so its stages are priced at the
// whole array. The p2p ceilings are measured between GPUs 0 and 1 only; the floors assume every
// pair, and GPU 0's ingress from all peers at once, reach that figure.

#include <benchmark/benchmark.h>

#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "multi_gpu_setup.hpp"

namespace handoff::bench {

void add_multi_gpu_floor(benchmark::State& state, const patterns::multi_gpu::partition_plan& plan,
                         gather_kind gather, patterns::multi_gpu::run_scope scope);

// The bytes a gather moves over the peer links (p2p: into GPU 0; NCCL: into each device), the
// figure its gather bandwidth is reported over.
double gather_link_bytes(const patterns::multi_gpu::partition_plan& plan, gather_kind gather);

}  // namespace handoff::bench
