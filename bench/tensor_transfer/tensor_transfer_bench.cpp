// tensor_transfer (seed 003): a tensor in process A moved to process B, which verifies it bit for
// bit. Device tensors go through all six variants; the host-path variants also run from CPU tensor
// to CPU tensor, so machines without a GPU (CI) exercise the same orchestration. Each size has a
// cold figure (a fresh channel: set-up, descriptor passing, registration, handle opening) and a
// warm one (the channel already open). Process start is not in either: it is its own ceiling.

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "../harness/family_registry.hpp"
#include "../harness/latest_cache.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/stage_counters.hpp"
#include "../harness/traffic.hpp"
#include "handoff/patterns/process/worker_role.hpp"
#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"
#include "handoff/patterns/tensor_transfer/tensor_sender.hpp"
#include "transfer_floors.hpp"

namespace handoff::bench {
namespace {

using patterns::transfer_variant;

HANDOFF_WORKER_ROLE(patterns::tensor_receiver_role, patterns::run_tensor_receiver);

constexpr std::size_t kibibyte = 1024;
constexpr std::size_t gibibyte = kibibyte * kibibyte * kibibyte;

// 4 KiB to 1 GiB in powers of 4, within --handoff-max-elements floats; one small size in smoke
// runs.
std::vector<std::size_t> tensor_bytes(const bench_config& config) {
  if (config.smoke) return {64 * kibibyte};
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4 * kibibyte; bytes <= gibibyte; bytes *= 4) {
    if (bytes / sizeof(float) > config.max_elements) break;
    sizes.push_back(bytes);
  }
  return sizes;
}

// Cold transfers rebuild the channel every time, which for the big sizes means registering or
// mapping a gigabyte; a fixed count keeps them from dominating the run.
int cold_iterations(const bench_config& config, std::size_t bytes) {
  if (config.smoke) return 2;
  return bytes >= 64 * kibibyte * kibibyte ? 3 : 20;
}

struct sender_key {
  transfer_variant variant;
  std::size_t bytes;
  bool on_device;
  bool operator==(const sender_key&) const = default;
};

// A warm transfer keeps the receiver process of the latest configuration.
latest_cache<sender_key, patterns::tensor_sender>& senders() {
  static latest_cache<sender_key, patterns::tensor_sender> cache;
  return cache;
}

std::unique_ptr<patterns::tensor_sender> start_sender(const sender_key& key) {
  return std::make_unique<patterns::tensor_sender>(patterns::transfer_setup{
      .variant = key.variant, .bytes = key.bytes, .on_device = key.on_device});
}

void transfer(benchmark::State& state, const sender_key& key, bool cold) {
  patterns::stage_times stages;
  double measured_seconds = 0;
  try {
    auto& sender = senders().get(key, [&] { return start_sender(key); });
    if (!cold) sender.transfer_warm();  // opens the session, outside the timing
    for (auto _ : state) {
      const auto result = cold ? sender.transfer_cold() : sender.transfer_warm();
      state.SetIterationTime(result.seconds);
      stages += result.stages;
      measured_seconds += result.seconds;
    }
    record_verification(state, sender.verify());
  } catch (...) {
    senders().drop();
    throw;
  }
  set_stage_counters(state, stages, measured_seconds);
  set_traffic(state, static_cast<double>(key.bytes),
              static_cast<double>(key.bytes / sizeof(float)));
  add_transfer_floor(state, key.variant, static_cast<double>(key.bytes), key.on_device);
}

void register_transfers(const bench_environment& environment, bool on_device) {
  for (const std::size_t bytes : tensor_bytes(environment.config)) {
    for (const auto variant : patterns::all_transfer_variants) {
      if (!on_device && !patterns::runs_host_only(variant)) continue;
      for (const bool cold : {false, true}) {
        const auto name =
            benchmark_name("tensor_transfer", std::string(patterns::variant_name(variant)),
                           {{"memory", on_device ? "device" : "host"},
                            {"bytes", std::to_string(bytes)},
                            {"start", cold ? "cold" : "warm"}});
        const sender_key key{variant, bytes, on_device};
        auto* benchmark = register_benchmark(
            name, [key, cold](benchmark::State& state) { transfer(state, key, cold); });
        if (cold) benchmark->Iterations(cold_iterations(environment.config, bytes));
      }
    }
  }
}

void register_device_transfers(const bench_environment& environment) {
  register_transfers(environment, true);
}

void register_host_transfers(const bench_environment& environment) {
  register_transfers(environment, false);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("tensor_transfer/host", 0, register_host_transfers);
HANDOFF_BENCHMARK_FAMILY("tensor_transfer/device", 1, register_device_transfers);

}  // namespace handoff::bench
