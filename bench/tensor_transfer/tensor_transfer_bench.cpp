// tensor_transfer (seed 003): a tensor in process A moved to process B, which verifies it bit for
// bit. Device tensors go through all six variants; the host-path variants also run from CPU tensor
// to CPU tensor, so machines without a GPU (CI) exercise the same orchestration. Each size has a
// cold figure (a fresh channel: set-up, descriptor passing, registration, handle opening) and a
// warm one (the channel already open). Process start is not in either: it is its own ceiling.
// The variants, their timing and floors are the table's (handoff/patterns/tensor_transfer).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "../harness/driver.hpp"
#include "../harness/family_registry.hpp"
#include "../harness/profile_points.hpp"
#include "../harness/sweep_registrar.hpp"
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

std::vector<transfer_point> points(const bench_config& config) {
  std::vector<transfer_point> made;
  for (const std::size_t bytes : tensor_bytes(config))
    made.push_back({bytes});
  return made;
}

name_axes axes(const transfer_point& at, compute_target target, std::optional<start> how) {
  return {{"memory", target == compute_target::device ? "device" : "host"},
          {"bytes", std::to_string(at.bytes)},
          {"start", how == start::cold ? "cold" : "warm"}};
}

int cold_samples(const bench_config& config, const transfer_point& at) {
  return cold_iterations(config, at.bytes);
}

// Every row that runs on the family's memory, warm and cold.
constexpr pattern_sweep<transfer_point, transfer_case, transfer_channel> sweep{
    .spec = transfer_spec,
    .rows = family_rows::by_target,
    .points = points,
    .axes = axes,
    .cold_samples = cold_samples};

}  // namespace

HANDOFF_BENCHMARK_FAMILY("tensor_transfer/host", 0,
                         register_sweep_on<sweep, compute_target::host_stand_in>);
HANDOFF_BENCHMARK_FAMILY("tensor_transfer/device", 1,
                         register_sweep_on<sweep, compute_target::device>);

}  // namespace handoff::bench::tensor_transfer
