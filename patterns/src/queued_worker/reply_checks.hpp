#pragma once
// The producer's checks of what its worker sends back: the report after each batch (and once when
// ready), and the header of each result on the seed's results queue. Host code only, so that
// fuzz/worker_replies_fuzzer.cpp drives them as the producer does.

#include <cstddef>
#include <string>

#include "protocol.hpp"

namespace handoff::patterns::queued_worker {

// A report for a batch of expected_items items: a failure the worker reports is worker_failed
// (with its text); a bad magic number, another item count or a stage time no stage can take
// (possible_seconds) is protocol_violation.
void check_report(const protocol::worker_report& report, const std::string& worker,
                  std::size_t expected_items);

// Result index of a batch, expected with elements floats, that came as length bytes (its header
// and its floats) on the results queue; anything else is protocol_violation.
void check_result_header(const protocol::message_header& header, std::size_t length,
                         std::size_t index, std::size_t elements, const std::string& worker);

}  // namespace handoff::patterns::queued_worker
