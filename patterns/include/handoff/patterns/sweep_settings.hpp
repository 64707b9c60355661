#pragma once
// What a pattern's sweep reads of the run it is measured in: the profile, the element cap, the
// user's own values for size axes, and the GPUs its families span. The bench fills it from its
// command line, which this layer does not know.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace handoff::patterns {

// standard: a short sweep of each pattern, sized to finish within 10 minutes on one H200. full:
// every point of every sweep. smoke: every family once, at a tiny size.
enum class sweep_profile { standard, full, smoke };

// The user's own values for size axes, by the axis's name in the rows' names.
using axis_values = std::map<std::string, std::vector<std::uint64_t>, std::less<>>;

struct sweep_settings {
  sweep_profile profile = sweep_profile::standard;
  bool smoke = false;
  std::uint64_t max_elements = std::uint64_t{1} << 28;
  axis_values chosen;
  // This machine's GPUs, or as many as a listing lists the rows for.
  int gpus = 0;
};

// The values chosen for axis, sorted, or nothing when the user chose none: in place of the
// profile's points.
inline std::optional<std::vector<std::size_t>> chosen_values(const sweep_settings& settings,
                                                             std::string_view axis) {
  const auto found = settings.chosen.find(axis);
  if (found == settings.chosen.end()) return {};
  return std::vector<std::size_t>(found->second.begin(), found->second.end());
}

}  // namespace handoff::patterns
