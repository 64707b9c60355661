#pragma once
// The coordinator's checks of a summing worker's replies: to attach, and to each chunk it was
// asked to sum. Host code only, so that fuzz/worker_replies_fuzzer.cpp drives them as summing_pool
// does.

#include <cstddef>
#include <optional>
#include <string>

#include "summing_protocol.hpp"

namespace handoff::patterns::postproc_split {

// The reply to attach; a bad magic number or another kind is process_error.
void check_attach_reply(const sum_reply& reply, const std::string& worker);

// The reply of a worker whose oldest request in flight is chunk `oldest` (none: it owes nothing);
// a bad magic number, a reply for another chunk or a stage time no stage can take
// (possible_seconds) is process_error.
void check_sum_reply(const sum_reply& reply, std::optional<std::size_t> oldest,
                     const std::string& worker);

}  // namespace handoff::patterns::postproc_split
