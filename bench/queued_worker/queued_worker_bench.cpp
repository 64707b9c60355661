// queued_worker (seed 000, example 2): a producer hands items of (a, b) to one GPU worker process
// and takes back c = a + b, in order. Warm rows run one batch on a worker that is already up;
// cold rows spawn the worker, create its context, run one batch and join it (what a script run
// once pays). The host stand-in rows (compute:host) run the same processes and channels with the
// add on the CPU, so machines without a GPU exercise the orchestration.

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/latest_cache.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/patterns/queued_worker/item_batch.hpp"
#include "handoff/reference/verify.hpp"
#include "queued_worker_floors.hpp"

namespace handoff::bench {
namespace {

using patterns::compute_target;
namespace qw = patterns::queued_worker;

HANDOFF_WORKER_ROLE(qw::gpu_worker_role, qw::run_gpu_worker);

constexpr std::size_t default_items = 10;
constexpr std::size_t default_elements = std::size_t{1} << 20;

// The batch of one shape. One shape is kept at a time: the largest holds 640 MB.
class batch_data : public qw::item_batch {
 public:
  explicit batch_data(const queued_worker_shape& shape)
      : qw::item_batch(std::vector<std::size_t>(shape.items, shape.elements), 0x0E2A),
        shape_(shape) {}
  const queued_worker_shape& shape() const { return shape_; }

 private:
  queued_worker_shape shape_;
};

batch_data& data_for(const queued_worker_shape& shape) {
  static latest_cache<queued_worker_shape, batch_data> cache;
  return cache.get(shape, [&] { return std::make_unique<batch_data>(shape); });
}

struct session_key {
  qw::variant kind;
  compute_target target;
  std::size_t elements;
  bool operator==(const session_key&) const = default;
};

qw::worker_setup setup_for(const session_key& key) {
  return {.kind = key.kind,
          .target = key.target,
          .max_item_elements = key.elements,
          .slot_count = 4,
          .purpose = "queued-worker-" + std::string(qw::variant_name(key.kind))};
}

// The worker of the latest configuration, with its context, stays up across runs.
latest_cache<session_key, qw::worker_session>& sessions() {
  static latest_cache<session_key, qw::worker_session> cache;
  return cache;
}

void run_batches(benchmark::State& state, const session_key& key, bool cold) {
  const queued_worker_shape shape{default_items, key.elements};
  auto& data = data_for(shape);
  patterns::stage_times stages;
  double measured_seconds = 0;
  const auto one_batch = [&] {
    data.poison();
    if (cold) return qw::run_once(setup_for(key), data.items(), data.outputs());
    return sessions()
        .get(key, [&] { return std::make_unique<qw::worker_session>(setup_for(key)); })
        .run_batch(data.items(), data.outputs());
  };
  try {
    if (cold) sessions().drop();  // a cold run competes with no idle worker
    one_batch();  // untimed: page faults, lazy loading, and (cold) reading the program from disk
    for (auto _ : state) {
      const auto result = one_batch();
      state.SetIterationTime(result.seconds);
      stages += result.stages;
      measured_seconds += result.seconds;
    }
  } catch (...) {
    sessions().drop();
    throw;
  }
  record_verification(state, data.verify());
  set_stage_counters(state, stages, measured_seconds);
  const double batches = static_cast<double>(state.iterations());
  set_traffic(state, 3.0 * sizeof(float) * static_cast<double>(shape.elements * shape.items),
              static_cast<double>(shape.elements * shape.items));
  add_queued_worker_floor(state, key.kind, key.target, shape, cold,
                          batches > 0 ? stages.kernel / batches : 0.0);
}

std::string row_name(const session_key& key, std::size_t items, bool cold) {
  return benchmark_name("queued_worker", std::string(qw::variant_name(key.kind)),
                        {{"compute", std::string(patterns::compute_target_name(key.target))},
                         {"items", std::to_string(items)},
                         {"elements", std::to_string(key.elements)},
                         {"start", cold ? "cold" : "warm"}});
}

void register_rows(const bench_environment& environment, compute_target target) {
  const auto& config = environment.config;
  std::vector<std::size_t> sweep;
  std::size_t cold_elements = default_elements;
  if (config.smoke) {
    sweep = {4099};  // uneven, and every variant still crosses its rings more than once
    cold_elements = 4099;
  } else {
    for (const std::size_t elements :
         {std::size_t{1} << 16, std::size_t{1} << 20, std::size_t{1} << 22}) {
      if (elements <= config.max_elements) sweep.push_back(elements);
    }
  }
  for (const auto kind : qw::all_variants) {
    for (const std::size_t elements : sweep) {
      const session_key key{kind, target, elements};
      register_benchmark(row_name(key, default_items, false),
                         [key](benchmark::State& state) { run_batches(state, key, false); });
    }
  }
  if (cold_elements > config.max_elements) return;
  for (const auto kind : qw::all_variants) {
    const session_key key{kind, target, cold_elements};
    register_benchmark(row_name(key, default_items, true), [key](benchmark::State& state) {
      run_batches(state, key, true);
    })->Iterations(config.smoke ? 1 : 3);
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

}  // namespace handoff::bench
