// queued_worker (seed 000, example 2): a producer hands items of (a, b) to one GPU worker process
// and takes back c = a + b, in order. Warm rows run one batch on a worker that is already up;
// cold rows spawn the worker, create its context, run one batch and join it (what a script run
// once pays). The host stand-in rows (compute:host) run the same processes and channels with the
// add on the CPU, so machines without a GPU exercise the orchestration. This file declares the
// sweep and the names (sweep_registrar.hpp registers every row of the table over them); the driver
// measures them.

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/sweep_registrar.hpp"
#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/patterns/queued_worker/variants.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench::queued_worker {
namespace {

using patterns::compute_target;
namespace qw = patterns::queued_worker;

HANDOFF_WORKER_ROLE(qw::gpu_worker_role, qw::run_gpu_worker);

constexpr std::size_t default_items = 10;
constexpr std::size_t default_elements = std::size_t{1} << 20;

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
using spec_type = pattern_spec<qw::point, qw::item_batch, qw::worker_behaviour>;

const spec_type& spec() {
  static const spec_type made{.pattern = "queued_worker",
                              .table = qw::queued_worker_variants(),
                              .make_case = qw::make_batch,
                              .traffic = [](const qw::point& at) {
                                const auto values = static_cast<double>(at.elements * at.items);
                                return std::pair{3.0 * sizeof(float) * values, values};
                              }};
  return made;
}

name_axes axes(const qw::point& at, compute_target target, std::optional<start> how) {
  return {{"compute", std::string(patterns::compute_target_name(target))},
          {"items", std::to_string(at.items)},
          {"elements", std::to_string(at.elements)},
          {"start", how == start::cold ? "cold" : "warm"}};
}

std::vector<qw::point> warm_points(const bench_config& config) {
  // Uneven, and every variant still crosses its rings more than once.
  if (config.smoke) return {{.items = default_items, .elements = 4099}};
  // 2^22 elements, the slowest items, only in the full profile.
  const std::size_t largest =
      config.profile == bench_profile::full ? std::size_t{1} << 22 : std::size_t{1} << 20;
  std::vector<qw::point> points;
  for (const std::size_t elements :
       {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22}) {
    if (elements <= std::min<std::uint64_t>(largest, config.max_elements))
      points.push_back({.items = default_items, .elements = elements});
  }
  return points;
}

std::vector<qw::point> cold_points(const bench_config& config) {
  const std::size_t elements = config.smoke ? 4099 : default_elements;
  if (elements > config.max_elements) return {};
  return {{.items = default_items, .elements = elements, .stop_after_run = true}};
}

int cold_samples(const bench_config& config, const qw::point&) {
  return config.smoke ? 1 : 3;
}

// Every row on the family's target: each through its warm sizes, then each cold once.
constexpr pattern_sweep<qw::point, qw::item_batch, qw::worker_behaviour> sweep{
    .spec = spec,
    .rows = family_rows::by_target,
    .points = warm_points,
    .axes = axes,
    .cold_samples = cold_samples,
    .cold_points = cold_points,
    .rows_outermost = true};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("queued_worker/cpu", 0,
                         register_sweep_on<sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("queued_worker/gpu", 1, register_sweep_on<sweep, compute_target::device>);

}  // namespace handoff::bench::queued_worker
