#include "registration.hpp"

#include <optional>
#include <string_view>

#include "handoff/wall_clock.hpp"
#include "host_cpu_share.hpp"
#include "interruption.hpp"
#include "outcome.hpp"

namespace handoff::bench {
namespace {

std::string& registering_family() {
  static std::string family = "other";
  return family;
}

std::shared_ptr<const bench_config>& registering_config() {
  static auto config = std::make_shared<const bench_config>();
  return config;
}

std::vector<registered_row>& rows() {
  static std::vector<registered_row> all;
  return all;
}

std::string& previous_family() {
  static std::string family;
  return family;
}

std::vector<std::function<void()>>& family_change_hooks() {
  static std::vector<std::function<void()>> hooks;
  return hooks;
}

// The machine's CPU over the whole row, beside its cost (host_cpu_share.hpp says why).
void record_host_cpu_share(benchmark::State& state, const std::optional<host_cpu_times>& before) {
  const auto after = read_host_cpu_times();
  if (!before || !after) return;
  if (const auto share = share_between(*before, *after)) {
    state.counters["host_busy"] = share->busy;
    state.counters["host_steal"] = share->steal;
  }
}

void enter_row(const registered_row& row) {
  auto& previous = previous_family();
  if (!previous.empty() && previous != row.family) {
    for (auto& retire : family_change_hooks())
      retire();
  }
  previous = row.family;
}

}  // namespace

benchmark::internal::Benchmark* register_benchmark(const std::string& name, benchmark_body body) {
  registered_row row{name, registering_family()};
  rows().push_back(row);
  auto* registered = benchmark::RegisterBenchmark(
      name.c_str(), [body = std::move(body), row = std::move(row),
                     config = registering_config()](benchmark::State& state) {
        if (run_interrupted()) {
          // Skipped rows are not results: the results writer leaves them out.
          state.SkipWithError(interruption_reason().c_str());
          return;
        }
        const auto host_before = read_host_cpu_times();
        const auto started = wall_clock::now();
        run_guarded(state, [&] {
          enter_row(row);
          body(state, row_context{.config = *config, .name = row.name, .pass = current_pass()});
        });
        // The row's whole cost, set-up, warm-up and verification included: what a profile spends.
        state.counters["row_seconds"] = seconds_since(started);
        record_host_cpu_share(state, host_before);
      });
  return registered->UseManualTime();
}

bool time_unit_chosen(int argc, char** argv) {
  for (int index = 1; index < argc; ++index) {
    const std::string_view argument = argv[index];
    if (argument.starts_with("--benchmark_time_unit")) return true;
  }
  return false;
}

std::string benchmark_name(const std::string& pattern, const std::string& variant,
                           const std::vector<std::pair<std::string, std::string>>& axes) {
  std::string name = pattern + "/" + variant;
  for (const auto& [axis, value] : axes)
    name += "/" + axis + ":" + value;
  return name;
}

void set_registering_family(std::string family, const bench_config& config) {
  registering_family() = std::move(family);
  registering_config() = std::make_shared<const bench_config>(config);
}

void set_registering_family(std::string family) {
  set_registering_family(std::move(family), bench_config{});
}

const std::vector<registered_row>& registered_rows() noexcept {
  return rows();
}

void on_family_change(std::function<void()> retire) {
  family_change_hooks().push_back(std::move(retire));
}

}  // namespace handoff::bench
