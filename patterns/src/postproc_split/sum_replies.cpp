#include "sum_replies.hpp"

#include "handoff/patterns/stage_times.hpp"
#include "handoff/transport/process_errors.hpp"

namespace handoff::patterns::postproc_split {

void check_attach_reply(const sum_reply& reply, const std::string& worker) {
  if (reply.magic != protocol_magic || reply.kind != request_kind::attach) {
    throw transport::process_error("worker " + worker + " answered attach with a wrong reply");
  }
}

void check_sum_reply(const sum_reply& reply, std::optional<std::size_t> oldest,
                     const std::string& worker) {
  if (reply.magic != protocol_magic || !oldest || reply.chunk_index != *oldest) {
    throw transport::process_error("worker " + worker + " replied for chunk " +
                                   std::to_string(reply.chunk_index) +
                                   ", which it was not summing");
  }
  if (!possible_seconds(reply.deserialize_seconds) || !possible_seconds(reply.post_seconds)) {
    throw transport::process_error("worker " + worker + " replied for chunk " +
                                   std::to_string(reply.chunk_index) + " with stage times of " +
                                   std::to_string(reply.deserialize_seconds) + " s and " +
                                   std::to_string(reply.post_seconds) + " s");
  }
}

}  // namespace handoff::patterns::postproc_split
