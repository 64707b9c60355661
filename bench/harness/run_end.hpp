#pragma once
// Resources a family keeps between benchmarks (a worker process, device memory) are released when
// the benchmarks finish, while the CUDA runtime is still up, rather than by static destructors.

#include <functional>

namespace handoff::bench {

void on_benchmarks_finished(std::function<void()> release);
void run_benchmarks_finished_hooks() noexcept;

}  // namespace handoff::bench
