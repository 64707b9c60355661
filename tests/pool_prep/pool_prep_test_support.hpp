#pragma once
// Shared by pool_prep's CPU and GPU tests beyond the conformance ones: names for this test
// process's workers and segments, so that leak checks see only its own.

#include <unistd.h>

#include <set>
#include <string>

#include "support/leak_checks.hpp"

namespace handoff::patterns::pool_prep::testing_support {

inline std::string test_purpose(const std::string& what) {
  return "test-" + std::to_string(::getpid()) + "-pool-prep-" + what;
}

using handoff::leak_checks::process_runs;

inline std::set<std::string> segments_containing(const std::string& purpose) {
  return handoff::leak_checks::held_segments_containing(purpose);
}

}  // namespace handoff::patterns::pool_prep::testing_support
