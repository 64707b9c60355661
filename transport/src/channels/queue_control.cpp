#include "queue_control.hpp"

#include <algorithm>
#include <cstring>

namespace handoff::transport {

void mark_broken(queue_control& control, const std::string& why) noexcept {
  std::uint32_t intact = queue_intact;
  if (control.broken_state.compare_exchange_strong(intact, queue_being_marked)) {
    const std::size_t length = std::min(why.size(), sizeof(control.broken_reason) - 1);
    std::copy_n(why.data(), length, control.broken_reason);
    control.broken_reason[length] = '\0';
    control.broken_state.store(queue_marked_broken);
  }
  wake_all(control.taken);
  wake_all(control.tasks_finished);
}

std::optional<std::string> broken_reason(const queue_control& control, const std::string& purpose) {
  const std::uint32_t state = control.broken_state.load();
  switch (state) {
    case queue_intact:
      return std::nullopt;
    case queue_marked_broken:
      // Never past the field, whatever another process left in it (no terminating zero).
      return std::string(control.broken_reason,
                         ::strnlen(control.broken_reason, sizeof(control.broken_reason)));
    case queue_being_marked:
      return std::string("(another process is recording why)");
    default:
      throw queue_corruption(purpose, "broken mark", std::to_string(state),
                             "which is none of 0 (intact), 1 (being marked) and 2 (broken)");
  }
}

shared_state_corrupted queue_corruption(const std::string& purpose, const std::string& what,
                                        const std::string& value, const std::string& why) {
  return shared_state_corrupted("queue " + purpose + "'s " + what + " holds " + value + ", " + why +
                                "; another process wrote over its control block");
}

}  // namespace handoff::transport
