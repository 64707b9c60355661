#include "task_replies.hpp"

#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns::independent_tasks {

void check_ready(const worker_ready& message, bool already_ready, const std::string& worker) {
  if (message.magic != protocol_magic || already_ready) {
    throw transport::process_error("worker " + worker + " sent a malformed ready message");
  }
}

void check_reply(const task_reply& reply, std::optional<std::uint64_t> running,
                 const std::string& worker) {
  if (reply.magic != protocol_magic || !running || *running != reply.task) {
    throw transport::process_error("worker " + worker + " replied for task " +
                                   std::to_string(reply.task) + ", which it was not running");
  }
  for (const double seconds : {reply.deserialize, reply.h2d, reply.kernel, reply.d2h}) {
    if (!possible_seconds(seconds)) {
      throw transport::process_error("worker " + worker + " replied for task " +
                                     std::to_string(reply.task) + " with a stage time of " +
                                     std::to_string(seconds) + " s");
    }
  }
}

}  // namespace handoff::patterns::independent_tasks
