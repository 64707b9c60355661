#include "queue_control.hpp"

#include <algorithm>

namespace handoff::transport {

void mark_broken(queue_control& control, const std::string& why) noexcept {
  std::uint32_t intact = 0;
  if (control.broken_state.compare_exchange_strong(intact, 1)) {
    const std::size_t length = std::min(why.size(), sizeof(control.broken_reason) - 1);
    std::copy_n(why.data(), length, control.broken_reason);
    control.broken_reason[length] = '\0';
    control.broken_state.store(2);
  }
  wake_all(control.taken);
  wake_all(control.tasks_finished);
}

std::optional<std::string> broken_reason(const queue_control& control) {
  switch (control.broken_state.load()) {
    case 0:
      return std::nullopt;
    case 2:
      return std::string(control.broken_reason);
    default:
      return std::string("(another process is recording why)");
  }
}

}  // namespace handoff::transport
