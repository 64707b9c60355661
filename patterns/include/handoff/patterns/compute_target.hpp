#pragma once
// Where a pattern's arithmetic runs. Benchmarks and GPU tests use the device. CI has no GPU, so
// the process patterns also run with a host stand-in: the same workers, queues, ordering and
// failure handling, with the arithmetic done on the CPU in place of the copies and the kernel.
// Worker roles receive the target as an argument, spelled by compute_target_name.

#include <string_view>

namespace handoff::patterns {

enum class compute_target { device, host_stand_in };

std::string_view compute_target_name(compute_target target) noexcept;  // "device" or "host"
// The inverse of compute_target_name; anything else is std::invalid_argument.
compute_target parse_compute_target(std::string_view name);

}  // namespace handoff::patterns
