#include "registration.hpp"

#include "outcome.hpp"

namespace handoff::bench {

benchmark::internal::Benchmark* register_benchmark(const std::string& name, benchmark_body body) {
  auto* registered =
      benchmark::RegisterBenchmark(name.c_str(), [body = std::move(body)](benchmark::State& state) {
        run_guarded(state, [&] { body(state); });
      });
  return registered->UseManualTime()->Unit(benchmark::kMicrosecond);
}

std::string benchmark_name(const std::string& pattern, const std::string& variant,
                           const std::vector<std::pair<std::string, std::string>>& axes) {
  std::string name = pattern + "/" + variant;
  for (const auto& [axis, value] : axes)
    name += "/" + axis + ":" + value;
  return name;
}

}  // namespace handoff::bench
