#pragma once
// The coordinator's checks of what a task worker sends back: its ready message, and the reply to
// each task. Host code only, so that fuzz/worker_replies_fuzzer.cpp drives them as task_pool does.

#include <cstdint>
#include <optional>
#include <string>

#include "task_protocol.hpp"

namespace handoff::patterns::independent_tasks {

// A worker's ready message; a bad magic number, or a second one, is process_error.
void check_ready(const worker_ready& message, bool already_ready, const std::string& worker);

// A reply from a worker running task `running` (none: it was running nothing); a bad magic number,
// a reply for another task or a stage time no stage can take (possible_seconds) is process_error.
void check_reply(const task_reply& reply, std::optional<std::uint64_t> running,
                 const std::string& worker);

}  // namespace handoff::patterns::independent_tasks
