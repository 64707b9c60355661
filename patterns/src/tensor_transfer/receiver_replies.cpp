#include "receiver_replies.hpp"

namespace handoff::patterns {

void check_reply(const reply_record& reply, std::string_view row, const std::string& receiver) {
  if (reply.ok == 0) {
    throw transfer_failed(std::string(row) + " receiver " + receiver + ": " +
                          std::string(reply.error_text()));
  }
  if (!reply.stages.possible()) {
    throw transport::process_error(std::string(row) + " receiver " + receiver +
                                   " replied with stage times no stage can take (negative, "
                                   "infinite or not a number)");
  }
}

reference::verification_result verification_of(const reply_record& reply, std::uint64_t bytes,
                                               const std::string& receiver) {
  const bool has_first = reply.has_first_mismatch != 0;
  if (reply.checked != bytes || reply.mismatches > reply.checked ||
      has_first != (reply.mismatches > 0) || (has_first && reply.first_mismatch >= bytes)) {
    throw transport::process_error(
        "receiver " + receiver + " verified " + std::to_string(reply.checked) + " of " +
        std::to_string(bytes) + " bytes with " + std::to_string(reply.mismatches) + " mismatches" +
        (has_first ? ", the first at " + std::to_string(reply.first_mismatch) : ", none first") +
        ": a verification that does not add up");
  }
  reference::verification_result result;
  result.checked = reply.checked;
  result.mismatches = reply.mismatches;
  if (has_first) {
    result.first = reference::first_mismatch{.index = reply.first_mismatch,
                                             .expected = reply.first_expected,
                                             .actual = reply.first_actual};
  }
  return result;
}

}  // namespace handoff::patterns
