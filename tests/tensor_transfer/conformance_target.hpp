#pragma once
// The target a tensor_transfer conformance program runs its rows on: one program per target
// (host_rows.cpp in CI, device_rows.cpp on a GPU), both from conformance_test.cpp.

#include "handoff/patterns/compute_target.hpp"

namespace handoff::patterns {

extern const compute_target conformance_target;

}  // namespace handoff::patterns
