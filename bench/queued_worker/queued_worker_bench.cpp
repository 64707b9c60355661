// queued_worker (seed 000, example 2): a producer hands items of (a, b) to one GPU worker process
// and takes back c = a + b, in order. Warm rows run one batch on a worker that is already up;
// cold rows spawn the worker, create its context, run one batch and join it (what a script run
// once pays). The host stand-in rows (compute:host) run the same processes and channels with the
// add on the CPU, so machines without a GPU exercise the orchestration. This file is the sweep and
// the names; the driver measures every row of the pattern's table.

#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
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

std::string row_name(const qw::row& row, compute_target target, const qw::point& at) {
  return benchmark_name("queued_worker", std::string(row.name),
                        {{"compute", std::string(patterns::compute_target_name(target))},
                         {"items", std::to_string(at.items)},
                         {"elements", std::to_string(at.elements)},
                         {"start", at.stop_after_run ? "cold" : "warm"}});
}

void register_rows(const bench_environment& environment, compute_target target) {
  const auto& config = environment.config;
  std::vector<std::size_t> sweep;
  std::size_t cold_elements = default_elements;
  if (config.smoke) {
    sweep = {4099};  // uneven, and every variant still crosses its rings more than once
    cold_elements = 4099;
  } else {
    // 2^22 elements, the slowest items, only in the full profile.
    const std::size_t largest =
        config.profile == bench_profile::full ? std::size_t{1} << 22 : std::size_t{1} << 20;
    for (const std::size_t elements :
         {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22}) {
      if (elements <= std::min<std::uint64_t>(largest, config.max_elements))
        sweep.push_back(elements);
    }
  }
  for (const auto& row : spec().table) {
    if (!row.targets.supports(target)) continue;
    for (const std::size_t elements : sweep) {
      const qw::point at{.items = default_items, .elements = elements};
      register_variant(spec(), row, at, target, start::warm, row_name(row, target, at));
    }
  }
  if (cold_elements > config.max_elements) return;
  for (const auto& row : spec().table) {
    if (!row.targets.supports(target)) continue;
    const qw::point at{.items = default_items, .elements = cold_elements, .stop_after_run = true};
    register_variant(spec(), row, at, target, start::cold, row_name(row, target, at),
                     config.smoke ? 1 : 3);
  }
}

void register_device_rows(const bench_environment& environment) {
  register_rows(environment, compute_target::device);
}

void register_host_rows(const bench_environment& environment) {
  register_rows(environment, compute_target::host_stand_in);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("queued_worker/cpu", 0, register_host_rows);
HANDOFF_BENCHMARK_FAMILY("queued_worker/gpu", 1, register_device_rows);

}  // namespace handoff::bench::queued_worker
