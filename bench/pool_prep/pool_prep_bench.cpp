// pool_prep/<variant>/chunks:<c>/elements:<per chunk>/workers:<w>/start:<cold|warm>: seed 000
// example 1 (and seed 001 example 1), a pool preparing a vector add's inputs chunk by chunk for
// the GPU. The variants, their sessions and floors are pool_prep's table
// (handoff/patterns/pool_prep/variants.hpp); the driver measures every row. This file declares
// the sweep and the names (sweep_registrar.hpp registers every row of the table over them): a
// one-thread variant (cpu_serial) has no workers and no cold figure, threads no cold figure.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/sweep_registrar.hpp"
#include "handoff/patterns/pool_prep/map_worker.hpp"
#include "handoff/patterns/pool_prep/ring_worker.hpp"
#include "handoff/patterns/pool_prep/variants.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench::pool_prep {
namespace {

namespace pp = patterns::pool_prep;
using patterns::compute_target;
using pp::point;

HANDOFF_WORKER_ROLE(pp::map_worker_role, pp::run_map_worker);
HANDOFF_WORKER_ROLE(pp::ring_worker_role, pp::run_ring_worker);

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
const pattern_spec<point, pp::batch_case>& spec() {
  static const pattern_spec<point, pp::batch_case> made{
      .pattern = "pool_prep",
      .table = pp::pool_prep_variants(),
      .make_case = pp::make_batch_case,
      .traffic = [](const point& at) {
        const double n = static_cast<double>(at.total());
        return std::pair{3 * sizeof(float) * n, n};  // a and b in, c out
      }};
  return made;
}

constexpr std::size_t default_workers = 4;
constexpr std::size_t default_elements = std::size_t{1} << 20;

// The default size (10 chunks of 2^20 floats; the seed's 1'000'000 rounded to a power of two)
// with 2, 4 and 8 workers; a smaller and (in the full profile) a larger chunk with 4 workers. Cold
// figures at the default only: each one starts a whole pool. A smoke run: 3 uneven-sized chunks of
// 1027.
std::vector<point> sweep(const bench_config& config) {
  if (config.smoke) return {{.chunks = 3, .elements = 1027, .workers = 2}};
  std::vector<point> points;
  const auto add = [&](std::size_t elements, std::size_t workers) {
    const point at{.chunks = 10, .elements = elements, .workers = workers};
    if (at.total() <= config.max_elements) points.push_back(at);
  };
  add(std::size_t{1} << 16, default_workers);
  for (const std::size_t workers : {2, 4, 8})
    add(default_elements, workers);
  // Chunks of 2^22 floats take a third of a second a run: the full profile's.
  if (config.profile == bench_profile::full) add(std::size_t{1} << 22, default_workers);
  return points;
}

bool has_cold(const bench_config& config, const point& at) {
  return config.smoke || (at.elements == default_elements && at.workers == default_workers);
}

bool one_thread(const pp::row& row) {
  return row.threads == patterns::host_threads::calling_only;
}

// The one-thread reference has no workers: one row per size, at the default worker count's
// points.
bool runs_at(const bench_config& config, const pp::row& row, const point& at, compute_target,
             start) {
  return !one_thread(row) || config.smoke || at.workers == default_workers;
}

bool has_axis(const pp::row& row, std::string_view axis) {
  return axis != "workers" || !one_thread(row);
}

name_axes axes(const point& at, compute_target, std::optional<start> how) {
  name_axes named{{"chunks", std::to_string(at.chunks)},
                  {"elements", std::to_string(at.elements)},
                  {"workers", std::to_string(at.workers)}};
  if (how) named.emplace_back("start", *how == start::cold ? "cold" : "warm");
  return named;
}

int cold_samples(const bench_config& config, const point&) {
  return config.smoke ? 1 : 3;
}

// The CPU variants in the CPU family, the others on the device; each row through its sizes.
constexpr pattern_sweep<point, pp::batch_case> pool_sweep{.spec = spec,
                                                          .points = sweep,
                                                          .axes = axes,
                                                          .cold_samples = cold_samples,
                                                          .rows_outermost = true,
                                                          .cold_at = has_cold,
                                                          .row_runs_at = runs_at,
                                                          .row_has_axis = has_axis};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("pool_prep/cpu", 0,
                         register_sweep_on<pool_sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("pool_prep/gpu", 1, register_sweep_on<pool_sweep, compute_target::device>);

}  // namespace handoff::bench::pool_prep
