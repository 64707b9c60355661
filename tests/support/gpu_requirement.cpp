#include "gpu_requirement.hpp"

#include <charconv>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "handoff/device_discovery.hpp"

namespace handoff::test_support {

gpu_requirement_verdict judge_gpu_requirement(int needed, int available,
                                              const std::string& unavailable_reason,
                                              int required_by_environment) {
  if (available >= needed) return {};
  const std::string shortfall = "needs " + std::to_string(needed) + " GPU(s), found " +
                                std::to_string(available) +
                                (unavailable_reason.empty() ? "" : ": " + unavailable_reason);
  if (required_by_environment >= needed) {
    return {gpu_requirement_verdict::action::fail,
            "HANDOFF_REQUIRE_GPU=" + std::to_string(required_by_environment) + " but " + shortfall};
  }
  return {gpu_requirement_verdict::action::skip, shortfall};
}

int required_gpus_from(const char* environment_value) {
  const std::string_view text = environment_value ? environment_value : "";
  if (text.empty()) return 0;
  int count = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
  if (error != std::errc{} || end != text.data() + text.size() || count < 0) {
    throw std::invalid_argument("HANDOFF_REQUIRE_GPU must be a number of GPUs, got '" +
                                std::string(text) + "'");
  }
  return count;
}

gpu_requirement_verdict check_gpu_requirement(int needed) {
  int required_count = 0;
  try {
    required_count = required_gpus_from(std::getenv("HANDOFF_REQUIRE_GPU"));
  } catch (const std::invalid_argument& error) {
    return {gpu_requirement_verdict::action::fail, error.what()};
  }
  const auto gpus = gpu_count();
  return judge_gpu_requirement(needed, gpus.count, gpus.reason, required_count);
}

}  // namespace handoff::test_support
