#include "run_end.hpp"

#include <cstdio>
#include <exception>
#include <vector>

namespace handoff::bench {
namespace {

std::vector<std::function<void()>>& hooks() {
  static std::vector<std::function<void()>> registered;
  return registered;
}

}  // namespace

void on_benchmarks_finished(std::function<void()> release) {
  hooks().push_back(std::move(release));
}

void run_benchmarks_finished_hooks() noexcept {
  for (auto& release : hooks()) {
    try {
      release();
    } catch (const std::exception& error) {
      std::fprintf(stderr, "handoff_bench: releasing a family's resources: %s\n", error.what());
    }
  }
  hooks().clear();
}

}  // namespace handoff::bench
