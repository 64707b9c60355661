#include "nccl_environment.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace handoff::bench {

std::string describe_nccl_environment(const char* const* environment) {
  std::vector<std::string> settings;
  for (auto entry = environment; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view setting = *entry;
    if (setting.starts_with("NCCL_") && setting.find('=') != std::string_view::npos) {
      settings.emplace_back(setting);
    }
  }
  if (settings.empty()) return "none";
  std::ranges::sort(settings);
  std::string text;
  for (const auto& setting : settings) {
    if (!text.empty()) text += "; ";
    text += setting;
  }
  return text;
}

}  // namespace handoff::bench
