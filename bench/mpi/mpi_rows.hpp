#pragma once
// The rows handoff_bench_mpi measures, from the multi_gpu table: every row whose specifics say it
// runs across ranks, for every registered workload, at one size with the even partitioner, at
// each scope it has (the gather scope only where it gathers; a placement-check workload the
// from-host scope only), named with the axes of handoff_bench's multi_gpu rows. A new variant that
// runs across ranks says so in its row, not here.

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../harness/bench_config.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::bench::mpi {

struct mpi_row {
  std::string name;
  patterns::multi_gpu::partitioned_config config;
  patterns::multi_gpu::across_ranks form;
  patterns::multi_gpu::run_scope scope;
};

struct mpi_rows {
  std::vector<mpi_row> rows;
  // The variants this machine cannot run, each with the reason: their rows are left out, since a
  // row would throw on every rank.
  std::vector<std::pair<std::string_view, std::string>> left_out;
};

// unavailable(row): why this machine cannot run the row with ranks ranks, or empty.
mpi_rows rows_across_ranks(
    const bench_config& config, int ranks,
    const std::function<std::string(const patterns::multi_gpu::multi_gpu_row&)>& unavailable);

}  // namespace handoff::bench::mpi
