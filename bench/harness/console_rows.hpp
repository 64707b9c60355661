#pragma once
// The console's table: a row's name, its median in the run's time unit, the noise of that median,
// its samples and wrong count, and flags; about 160 columns for the longest names. Google
// Benchmark's own line would add a CPU column (the whole iteration's CPU time, set-up and
// verification included, for a row timed by hand) and an Iterations column (always 1, since each
// row is one iteration inside which handoff samples) and every counter, 400 characters and more:
// those stay in the JSON.

#include <benchmark/benchmark.h>

#include <string>

namespace handoff::bench {

std::string console_header(std::size_t name_width);
std::string console_row(const benchmark::BenchmarkReporter::Run& run, std::size_t name_width);

}  // namespace handoff::bench
