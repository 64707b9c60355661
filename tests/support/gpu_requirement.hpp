#pragma once
// GPU tests skip, with the reason, on machines with too few GPUs, so ctest reports them as skipped
// rather than passed. HANDOFF_REQUIRE_GPU=N turns the skip of any test that needs N or fewer GPUs
// into a failure: a GPU machine sets it so that nothing skips silently there.

#include <gtest/gtest.h>

#include <string>

namespace handoff::test_support {

struct gpu_requirement_verdict {
  enum class action { run, skip, fail } what = action::run;
  std::string reason;
};

// required_by_environment is the value of HANDOFF_REQUIRE_GPU (0 when unset).
gpu_requirement_verdict judge_gpu_requirement(int needed, int available,
                                              const std::string& unavailable_reason,
                                              int required_by_environment);

// HANDOFF_REQUIRE_GPU as a count: unset or empty is 0; anything but digits is
// std::invalid_argument, so a typo cannot quietly let GPU tests skip.
int required_gpus_from(const char* environment_value);

gpu_requirement_verdict check_gpu_requirement(int needed);

}  // namespace handoff::test_support

#define HANDOFF_REQUIRE_GPUS(needed)                                                          \
  do {                                                                                        \
    const auto handoff_verdict = ::handoff::test_support::check_gpu_requirement(needed);      \
    using handoff_action = ::handoff::test_support::gpu_requirement_verdict::action;          \
    if (handoff_verdict.what == handoff_action::fail) GTEST_FAIL() << handoff_verdict.reason; \
    if (handoff_verdict.what == handoff_action::skip) GTEST_SKIP() << handoff_verdict.reason; \
  } while (false)
