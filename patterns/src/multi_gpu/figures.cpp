#include "handoff/patterns/multi_gpu/figures.hpp"

#include <algorithm>
#include <string>

namespace handoff::patterns::multi_gpu {

void run_totals::add(double run_seconds, const std::vector<double>& run_busy) {
  runs += 1;
  seconds += run_seconds;
  if (busy_seconds.size() < run_busy.size()) busy_seconds.resize(run_busy.size(), 0.0);
  for (std::size_t i = 0; i < run_busy.size(); ++i)
    busy_seconds[i] += run_busy[i];
  if (!run_busy.empty()) slowest_busy_seconds += *std::ranges::max_element(run_busy);
}

std::vector<named_figure> throughput_figures(const partitioned_setup& setup,
                                             const run_totals& totals) {
  const auto& plan = setup.plan;
  const auto elements = static_cast<double>(plan.elements);
  std::vector<named_figure> figures;
  if (totals.seconds > 0.0) {
    figures.push_back(
        {"per_gpu_items_per_second", elements * totals.runs / totals.seconds / plan.devices});
    if (const auto share = coordination_share(totals)) {
      figures.push_back({"coordination_share", *share});
    }
  }
  // Named by the plan's device, so an MPI rank's slot reports as gpu<rank>.
  const auto slots = setup.devices->slots();
  for (std::size_t i = 0; i < totals.busy_seconds.size() && i < slots.size(); ++i) {
    if (totals.busy_seconds[i] <= 0.0) continue;
    const int device = slots[i].rank;
    figures.push_back(
        {"gpu" + std::to_string(device) + "_items_per_second",
         static_cast<double>(plan.elements_on(device)) * totals.runs / totals.busy_seconds[i]});
  }
  for (std::size_t d = 0; d < setup.device_throughputs.size(); ++d) {
    figures.push_back({"weight_gpu" + std::to_string(d),
                       static_cast<double>(plan.elements_on(static_cast<int>(d))) / elements});
  }
  return figures;
}

std::optional<double> coordination_share(const run_totals& totals) {
  if (totals.seconds <= 0.0 || totals.slowest_busy_seconds <= 0.0) return std::nullopt;
  // Events on two devices can disagree by a microsecond: a share just below zero is zero.
  return std::max(0.0, 1.0 - totals.slowest_busy_seconds / totals.seconds);
}

std::vector<named_figure> gather_figures(const partition_plan& plan, gather_kind gather,
                                         run_scope scope, const run_totals& totals) {
  if (scope != run_scope::gather || totals.runs == 0 || totals.seconds <= 0.0) return {};
  std::vector<named_figure> figures;
  const double per_run = totals.seconds / totals.runs;
  const double link_bytes = gather_link_bytes(plan, gather);
  if (link_bytes > 0.0) figures.push_back({"gather_bytes_per_second", link_bytes / per_run});
  if (gather != gather_kind::nccl) return figures;
  const double algbw = sizeof(float) * static_cast<double>(plan.elements) / per_run;
  figures.push_back({"algbw", algbw});
  figures.push_back({"busbw", algbw * (plan.devices - 1) / plan.devices});
  figures.push_back({"all_gather_collective", plan.uniform() && plan.elements > 0 ? 1.0 : 0.0});
  return figures;
}

double gather_link_bytes(const partition_plan& plan, gather_kind gather) {
  if (plan.devices < 2) return 0.0;
  const double array_bytes = sizeof(float) * static_cast<double>(plan.elements);
  switch (gather) {
    case gather_kind::peer:
      return sizeof(float) * static_cast<double>(plan.elements - plan.elements_on(0));
    case gather_kind::nccl:
      // Each device receives every part but its own; with even shares, (N-1)/N of the array,
      // which is what busbw counts.
      return array_bytes * (plan.devices - 1) / plan.devices;
    default:
      return 0.0;
  }
}

}  // namespace handoff::patterns::multi_gpu
