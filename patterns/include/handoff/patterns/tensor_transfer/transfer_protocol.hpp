#pragma once
// The records the coordinator (process A, the sender) and the tensor receiver (process B) exchange
// on their control connection. Data travels on the variant's own channel, set up per session.

#include <array>
#include <chrono>
#include <cstdint>
#include <string_view>

#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns {

inline constexpr std::string_view tensor_receiver_role = "tensor_receiver";

// The receiver reported a failure (a frame it rejected, a CUDA error, ...).
class transfer_failed : public transport::process_error {
 public:
  using transport::process_error::process_error;
};

enum class receiver_command : std::uint32_t {
  prepare = 1,        // allocate the destination (bytes, on_device) and poison it; replies
  poison = 2,         // poison the destination; replies
  open_session = 3,   // attach to the variant's channel, whose descriptors follow; no reply
  receive = 4,        // take one tensor from the session; replies with the stage times
  verify = 5,         // compare the destination with the seeded pattern; replies
  close_session = 6,  // detach from the channel; replies
};

struct command_record {
  receiver_command command = receiver_command::poison;
  std::uint32_t on_device = 0;
  std::uint32_t descriptors = 0;  // how many send_fd messages follow an open_session
  std::uint64_t bytes = 0;
  std::uint64_t seed = 0;
  // The variant an open_session opens, by its row's name: B finds its receiving side in the table.
  std::array<char, 32> variant{};

  void set_variant(std::string_view name);
  std::string_view variant_name() const;
};

struct reply_record {
  std::uint32_t ok = 0;
  std::uint32_t has_first_mismatch = 0;
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;
  std::uint64_t first_mismatch = 0;
  double first_expected = 0;
  double first_actual = 0;
  stage_times stages;
  std::array<char, 256> error{};  // why it failed, when ok is 0

  void set_error(std::string_view message);
  std::string_view error_text() const;
};

// A receiver stops waiting for its coordinator after this long; the coordinator's own deadlines
// are shorter, so it reports first.
inline constexpr auto receiver_idle_limit = std::chrono::minutes(10);

}  // namespace handoff::patterns
