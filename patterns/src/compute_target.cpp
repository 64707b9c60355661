#include "handoff/patterns/compute_target.hpp"

#include <stdexcept>
#include <string>

namespace handoff::patterns {

std::string_view compute_target_name(compute_target target) noexcept {
  return target == compute_target::device ? "device" : "host";
}

compute_target parse_compute_target(std::string_view name) {
  if (name == "device") return compute_target::device;
  if (name == "host") return compute_target::host_stand_in;
  throw std::invalid_argument("unknown compute target '" + std::string(name) +
                              "': expected device or host");
}

}  // namespace handoff::patterns
