#pragma once
// The NCCL settings a run was made under. NCCL reads its tuning (channels, protocol, buffer
// sizes, NVLink multicast) from NCCL_* environment variables, and the same collective on the
// same GPUs can differ by tens of percent between settings, so a run's JSON names them, and a
// comparison across different settings is a comparison of settings.

#include <string>

namespace handoff::bench {

// "NAME=value" for every NCCL_* variable of environment (a null-terminated array, as environ),
// sorted by name and joined with "; "; "none" when there are none.
std::string describe_nccl_environment(const char* const* environment);

}  // namespace handoff::bench
