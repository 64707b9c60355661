#include "multi_gpu_counters.hpp"

#include <string>

#include "../harness/outcome.hpp"
#include "../harness/traffic.hpp"
#include "handoff/reference/verify.hpp"
#include "multi_gpu_floors.hpp"

namespace handoff::bench {

using namespace patterns::multi_gpu;

namespace {

void add_verdict(reference::verification_result& total,
                 const reference::verification_result& verdict, std::size_t offset) {
  total.checked += verdict.checked;
  total.mismatches += verdict.mismatches;
  if (!total.first && verdict.first) {
    total.first = verdict.first;
    total.first->index += offset;
  }
}

}  // namespace

reference::verification_result check_gathered_or_local(const multi_gpu_setup& setup,
                                                       device_gather* gather) {
  reference::verification_result total;
  if (gather != nullptr) {
    for (const auto& copy : gather->results()) {
      add_verdict(total, reference::verify_elementwise(setup.expected, copy, 0), 0);
    }
    return total;
  }
  const auto local = setup.devices->assembled_outputs();
  const std::span<const float> expected(setup.expected);
  const std::span<const float> actual(local);
  for (const auto& slot : setup.devices->slots()) {
    for (const auto& part : slot.parts) {
      add_verdict(total,
                  reference::verify_elementwise(expected.subspan(part.offset, part.count),
                                                actual.subspan(part.offset, part.count), 0),
                  part.offset);
    }
  }
  return total;
}

void verify_gathered_or_local(benchmark::State& state, const multi_gpu_setup& setup,
                              device_gather* gather) {
  record_verification(state, check_gathered_or_local(setup, gather));
}

void add_throughput_counters(benchmark::State& state, const multi_gpu_setup& setup,
                             const std::vector<double>& busy_seconds, double runs,
                             double measured_seconds) {
  const auto& plan = setup.plan;
  set_traffic(state, sizeof(float) * static_cast<double>(plan.elements),
              static_cast<double>(plan.elements));
  state.counters["gpus"] = plan.devices;
  if (measured_seconds > 0.0) {
    state.counters["per_gpu_items_per_second"] =
        static_cast<double>(plan.elements) * runs / measured_seconds / plan.devices;
  }
  // Named by the plan's device, so an MPI rank's slot reports as gpu<rank>.
  const auto slots = setup.devices->slots();
  for (std::size_t i = 0; i < busy_seconds.size() && i < slots.size(); ++i) {
    if (busy_seconds[i] <= 0.0) continue;
    const int device = slots[i].rank;
    state.counters["gpu" + std::to_string(device) + "_items_per_second"] =
        static_cast<double>(plan.elements_on(device)) * runs / busy_seconds[i];
  }
  for (std::size_t d = 0; d < setup.device_throughputs.size(); ++d) {
    state.counters["weight_gpu" + std::to_string(d)] =
        static_cast<double>(plan.elements_on(static_cast<int>(d))) /
        static_cast<double>(plan.elements);
  }
}

void add_gather_counters(benchmark::State& state, const multi_gpu_setup& setup, gather_kind gather,
                         run_scope scope, double seconds, double runs) {
  if (scope != run_scope::gather || runs == 0 || seconds <= 0.0) return;
  const double per_run = seconds / runs;
  const double link_bytes = gather_link_bytes(setup.plan, gather);
  if (link_bytes > 0.0) state.counters["gather_bytes_per_second"] = link_bytes / per_run;
  if (gather != gather_kind::nccl) return;
  const double algbw = sizeof(float) * static_cast<double>(setup.plan.elements) / per_run;
  state.counters["algbw"] = algbw;
  state.counters["busbw"] = algbw * (setup.plan.devices - 1) / setup.plan.devices;
  state.counters["all_gather_collective"] = setup.plan.uniform() && setup.plan.elements > 0 ? 1 : 0;
}

}  // namespace handoff::bench
