#pragma once
// The figures a multi_gpu run reports beside its time, shared by the single-process sessions and
// the MPI ranks (bench/mpi), so that the two modes report the same figures the same way:
//   gpu<d>_items_per_second   device d's elements over its busy time;
//   per_gpu_items_per_second  the aggregate rate over the GPU count;
//   coordination_share        the share of a run's time outside its slowest device's busy span:
//                             the launches' skew, the fork and the join, what one process pays
//                             to drive several GPUs beyond the slowest one's own work (an MPI
//                             rank knows its own device only: there, outside that rank's span);
//   weight_gpu<d>             the weighted partitioner's share of device d;
//   gather_bytes_per_second   scope gather: the bytes over the peer links over the gather's time;
//   algbw, busbw              scope gather, NCCL: as nccl-tests define them (docs/patterns.md);
//   all_gather_collective     1: ncclAllGather itself; 0: grouped broadcasts.

#include <optional>
#include <vector>

#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "handoff/patterns/multi_gpu/partitioned_setup.hpp"

namespace handoff::patterns::multi_gpu {

// What the timed runs of one measurement add up to.
struct run_totals {
  double runs = 0;
  double seconds = 0;                // all the runs' time together
  std::vector<double> busy_seconds;  // per device slot; empty when not measured
  double slowest_busy_seconds = 0;   // each run's longest busy span, added up
  void add(double run_seconds, const std::vector<double>& run_busy);
};

std::vector<named_figure> throughput_figures(const partitioned_setup& setup,
                                             const run_totals& totals);

// coordination_share of the runs in totals; none when their busy spans were not measured.
std::optional<double> coordination_share(const run_totals& totals);

// Scope gather only (else none).
std::vector<named_figure> gather_figures(const partition_plan& plan, gather_kind gather,
                                         run_scope scope, const run_totals& totals);

// The bytes a gather moves over the peer links (p2p: into GPU 0; NCCL: into each device), the
// figure its gather bandwidth is reported over, and its floor.
double gather_link_bytes(const partition_plan& plan, gather_kind gather);

}  // namespace handoff::patterns::multi_gpu
