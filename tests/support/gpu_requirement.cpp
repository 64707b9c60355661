#include "gpu_requirement.hpp"

#include <cstdlib>

#include "handoff/device_discovery.hpp"

namespace handoff::testing {

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

gpu_requirement_verdict check_gpu_requirement(int needed) {
  const char* required = std::getenv("HANDOFF_REQUIRE_GPU");
  const int required_count = required ? std::atoi(required) : 0;
  const auto gpus = gpu_count();
  return judge_gpu_requirement(needed, gpus.count, gpus.reason, required_count);
}

}  // namespace handoff::testing
