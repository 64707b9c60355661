#include "handoff/patterns/tensor_transfer/sweep.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/profile_points.hpp"

namespace handoff::patterns {

// Named, so that a unity build of this layer (the sanitizer presets) never joins these helpers
// with another file's.
namespace tensor_transfer_sweep {
namespace {

constexpr std::size_t kibibyte = 1024;
constexpr std::size_t gibibyte = kibibyte * kibibyte * kibibyte;

// 4 KiB to 1 GiB in powers of 4, within the element cap in floats (the default profile: 4 KiB,
// 4 MiB and 256 MiB); one small size in smoke runs.
std::vector<std::size_t> tensor_bytes(const sweep_settings& settings) {
  if (auto chosen = chosen_values(settings, "bytes")) return *chosen;
  if (settings.smoke) return {64 * kibibyte};
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4 * kibibyte; bytes <= gibibyte; bytes *= 4) {
    if (bytes / sizeof(float) > settings.max_elements) break;
    sizes.push_back(bytes);
  }
  return profile_points<std::size_t>(settings, sizes,
                                     {4 * kibibyte * kibibyte, 256 * kibibyte * kibibyte});
}

std::vector<transfer_point> points(const sweep_settings& settings) {
  std::vector<transfer_point> made;
  for (const std::size_t bytes : tensor_bytes(settings))
    made.push_back({bytes});
  return made;
}

name_axes axes(const transfer_point& at, compute_target target, std::optional<start> how) {
  return {{"memory", target == compute_target::device ? "device" : "host"},
          {"bytes", std::to_string(at.bytes)},
          {"start", std::string(start_name(how.value_or(start::warm)))}};
}

// Cold transfers rebuild the channel every time, which for the big sizes means registering or
// mapping a gigabyte; a fixed count keeps them from dominating the run.
int cold_samples(const sweep_settings& settings, const transfer_point& at) {
  if (settings.smoke) return 2;
  return at.bytes >= 64 * kibibyte * kibibyte ? 3 : 20;
}

// Every row that runs on the family's memory, warm and cold.
constexpr pattern_sweep<transfer_point, transfer_case, transfer_channel> sweep{
    .rows = family_rows::by_target, .points = points, .axes = axes, .cold_samples = cold_samples};

}  // namespace
}  // namespace tensor_transfer_sweep

const pattern_benchmarks<transfer_point, transfer_case, transfer_channel>&
tensor_transfer_benchmarks() {
  static const pattern_benchmarks<transfer_point, transfer_case, transfer_channel> made{
      .spec = {.pattern = "tensor_transfer",
               .table = tensor_transfer_variants(),
               .make_case = make_transfer_case,
               .traffic =
                   [](const transfer_point& at) {
                     const auto bytes = static_cast<double>(at.bytes);
                     return std::pair{bytes, bytes / sizeof(float)};
                   }},
      .settable_axes = {"bytes"},
      .families = {{.name = "host",
                    .target = compute_target::host_stand_in,
                    .sweeps = {tensor_transfer_sweep::sweep}},
                   {.name = "device",
                    .min_gpus = 1,
                    .target = compute_target::device,
                    .sweeps = {tensor_transfer_sweep::sweep}}}};
  return made;
}

}  // namespace handoff::patterns
