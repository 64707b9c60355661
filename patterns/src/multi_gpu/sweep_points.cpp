#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

bool placement_check(const multi_gpu_point& at) {
  return find_workload(at.config.workload).rows == workload_rows::placement_check;
}

bool even(const multi_gpu_point& at) {
  return at.config.partition == partitioner::even;
}

}  // namespace

bool on_the_scaling_curve(const multi_gpu_point& at) {
  if (placement_check(at)) return at.scope == run_scope::from_host;
  return at.scope == run_scope::resident ||
         (at.scope == run_scope::from_host && even(at) && at.headline);
}

bool at_the_headline_launch(const multi_gpu_point& at) {
  return !placement_check(at) && even(at) && at.headline && at.scope != run_scope::gather;
}

bool at_the_headline_gather(const multi_gpu_point& at) {
  if (placement_check(at)) return at.scope == run_scope::from_host;
  return at.headline && (even(at) || at.scope == run_scope::resident);
}

}  // namespace handoff::patterns::multi_gpu
