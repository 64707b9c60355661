// tensor_transfer (seed 003): a tensor in process A moved to process B, which verifies it bit for
// bit. Device tensors go through all six variants; the host-path variants also run from CPU tensor
// to CPU tensor, so machines without a GPU (CI) exercise the same orchestration. Each size has a
// cold figure (a fresh channel: set-up, descriptor passing, registration, handle opening) and a
// warm one (the channel already open). Process start is not in either: it is its own ceiling.
// The variants, their timing and floors are the table's (handoff/patterns/tensor_transfer).

#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"
#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/process/worker_role.hpp"

namespace handoff::bench::tensor_transfer {
namespace {

using patterns::compute_target;
using patterns::transfer_case;
using patterns::transfer_channel;
using patterns::transfer_point;

HANDOFF_WORKER_ROLE(patterns::tensor_receiver_role, patterns::run_tensor_receiver);

constexpr std::size_t kibibyte = 1024;
constexpr std::size_t gibibyte = kibibyte * kibibyte * kibibyte;

// 4 KiB to 1 GiB in powers of 4, within --handoff-max-elements floats (the default profile: 4 KiB,
// 4 MiB and 256 MiB); one small size in smoke runs.
std::vector<std::size_t> tensor_bytes(const bench_config& config) {
  if (auto chosen = chosen_values(config, "bytes")) return *chosen;
  if (config.smoke) return {64 * kibibyte};
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4 * kibibyte; bytes <= gibibyte; bytes *= 4) {
    if (bytes / sizeof(float) > config.max_elements) break;
    sizes.push_back(bytes);
  }
  return profile_points<std::size_t>(config, sizes,
                                     {4 * kibibyte * kibibyte, 256 * kibibyte * kibibyte});
}

// Cold transfers rebuild the channel every time, which for the big sizes means registering or
// mapping a gigabyte; a fixed count keeps them from dominating the run.
int cold_iterations(const bench_config& config, std::size_t bytes) {
  if (config.smoke) return 2;
  return bytes >= 64 * kibibyte * kibibyte ? 3 : 20;
}

// Made when first asked, once main has started: a table's rows may be initialised before main
// in any order.
using transfer_spec_type = pattern_spec<transfer_point, transfer_case, transfer_channel>;

const transfer_spec_type& transfer_spec() {
  static const transfer_spec_type made{.pattern = "tensor_transfer",
                                       .table = patterns::tensor_transfer_variants(),
                                       .make_case = patterns::make_transfer_case,
                                       .traffic = [](const transfer_point& at) {
                                         const auto bytes = static_cast<double>(at.bytes);
                                         return std::pair{bytes, bytes / sizeof(float)};
                                       }};
  return made;
}

void register_transfers(const bench_environment& environment, compute_target target) {
  const bool on_device = target == compute_target::device;
  for (const std::size_t bytes : tensor_bytes(environment.config)) {
    for (const auto& row : transfer_spec().table) {
      if (!row.targets.supports(target)) continue;
      for (const auto how : {start::warm, start::cold}) {
        const auto name =
            benchmark_name(std::string(transfer_spec().pattern), std::string(row.name),
                           {{"memory", on_device ? "device" : "host"},
                            {"bytes", std::to_string(bytes)},
                            {"start", how == start::cold ? "cold" : "warm"}});
        register_variant(transfer_spec(), row, transfer_point{bytes}, target, how, name,
                         cold_iterations(environment.config, bytes));
      }
    }
  }
}

void register_device_transfers(const bench_environment& environment) {
  register_transfers(environment, compute_target::device);
}

void register_host_transfers(const bench_environment& environment) {
  register_transfers(environment, compute_target::host_stand_in);
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("tensor_transfer/host", 0, register_host_transfers);
HANDOFF_BENCHMARK_FAMILY("tensor_transfer/device", 1, register_device_transfers);

}  // namespace handoff::bench::tensor_transfer
