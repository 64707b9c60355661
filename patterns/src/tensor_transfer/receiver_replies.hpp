#pragma once
// The sender's checks of what its tensor receiver replies: that a command succeeded, and what a
// verify reports. Host code only, so that fuzz/worker_replies_fuzzer.cpp drives them as
// tensor_sender does.

#include <cstdint>
#include <string>
#include <string_view>

#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns {

// A failure the receiver reports is transfer_failed, naming the row and the receiver; a reply with
// a stage time no stage can take (possible_seconds) is process_error.
void check_reply(const reply_record& reply, std::string_view row, const std::string& receiver);

// What a verify reply reports about the receiver's destination of `bytes` bytes. A verification
// that does not add up is process_error: not every byte checked, more mismatches than bytes, a
// first mismatch without mismatches (or none with them), or one outside the destination. A
// receiver cannot pass the check by claiming to have checked nothing.
reference::verification_result verification_of(const reply_record& reply, std::uint64_t bytes,
                                               const std::string& receiver);

}  // namespace handoff::patterns
