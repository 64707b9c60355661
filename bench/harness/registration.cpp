#include "registration.hpp"

#include "handoff/wall_clock.hpp"
#include "interruption.hpp"
#include "outcome.hpp"

namespace handoff::bench {
namespace {

std::string& registering_family() {
  static std::string family = "other";
  return family;
}

std::vector<registered_row>& rows() {
  static std::vector<registered_row> all;
  return all;
}

struct current_row_state {
  std::string name;
  std::string family;
  std::string previous_family;
};

current_row_state& current() {
  static current_row_state state;
  return state;
}

std::vector<std::function<void()>>& family_change_hooks() {
  static std::vector<std::function<void()>> hooks;
  return hooks;
}

void enter_row(const registered_row& row) {
  auto& state = current();
  if (!state.previous_family.empty() && state.previous_family != row.family) {
    for (auto& retire : family_change_hooks())
      retire();
  }
  state.name = row.name;
  state.family = row.family;
  state.previous_family = row.family;
}

}  // namespace

benchmark::internal::Benchmark* register_benchmark(const std::string& name, benchmark_body body) {
  registered_row row{name, registering_family()};
  rows().push_back(row);
  auto* registered = benchmark::RegisterBenchmark(
      name.c_str(), [body = std::move(body), row = std::move(row)](benchmark::State& state) {
        if (run_interrupted()) {
          // Skipped rows are not results: the results writer leaves them out.
          state.SkipWithError(interruption_reason().c_str());
          return;
        }
        const auto started = wall_clock::now();
        run_guarded(state, [&] {
          enter_row(row);
          body(state);
        });
        // The row's whole cost, set-up, warm-up and verification included: what a profile spends.
        state.counters["row_seconds"] = seconds_since(started);
        current().name.clear();
        current().family.clear();
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

void set_registering_family(std::string family) {
  registering_family() = std::move(family);
}

const std::vector<registered_row>& registered_rows() noexcept {
  return rows();
}

const std::string& current_row_name() noexcept {
  return current().name;
}

const std::string& current_row_family() noexcept {
  return current().family;
}

void on_family_change(std::function<void()> retire) {
  family_change_hooks().push_back(std::move(retire));
}

}  // namespace handoff::bench
