#pragma once
// Verification and counters shared by the single-process rows (handoff_bench) and the MPI rows
// (handoff_bench_mpi), so that the two modes report the same figures the same way.

#include <benchmark/benchmark.h>

#include <vector>

#include "handoff/reference/verify.hpp"
#include "multi_gpu_setup.hpp"

namespace handoff::bench {

// Every copy the gather made, each against the whole reference; with no gather, this process's
// parts where they lie on their devices. Adds to the result the other ranks' counts when given a
// way to sum them (MPI), so every rank records the same verdict.
reference::verification_result check_gathered_or_local(const multi_gpu_setup& setup,
                                                       patterns::multi_gpu::device_gather* gather);
void verify_gathered_or_local(benchmark::State& state, const multi_gpu_setup& setup,
                              patterns::multi_gpu::device_gather* gather);

// busy_seconds: each device slot's busy time summed over the runs (empty when not measured);
// measured_seconds: all the runs' time together.
void add_throughput_counters(benchmark::State& state, const multi_gpu_setup& setup,
                             const std::vector<double>& busy_seconds, double runs,
                             double measured_seconds);

// Scope gather only: gather_bytes_per_second; for NCCL also algbw and busbw.
void add_gather_counters(benchmark::State& state, const multi_gpu_setup& setup, gather_kind gather,
                         patterns::multi_gpu::run_scope scope, double seconds, double runs);

}  // namespace handoff::bench
