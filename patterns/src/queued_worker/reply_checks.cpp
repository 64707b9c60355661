#include "reply_checks.hpp"

namespace handoff::patterns::queued_worker {

void check_report(const protocol::worker_report& report, const std::string& worker,
                  std::size_t expected_items) {
  if (report.magic != protocol::magic) {
    throw protocol_violation("queued_worker: worker " + worker +
                             " sent a report with a bad magic number");
  }
  if (report.ok == 0) {
    throw worker_failed(
        "queued_worker: worker " + worker + " reported a failure: " + report.error_text(), worker);
  }
  if (report.items != expected_items) {
    throw protocol_violation("queued_worker: worker " + worker + " processed " +
                             std::to_string(report.items) + " items of a batch of " +
                             std::to_string(expected_items));
  }
  if (!report.stages.possible()) {
    throw protocol_violation("queued_worker: worker " + worker +
                             " reported stage times no stage can take (negative, infinite or "
                             "not a number)");
  }
}

void check_result_header(const protocol::message_header& header, std::size_t length,
                         std::size_t index, std::size_t elements, const std::string& worker) {
  const auto expected_length = sizeof(header) + elements * sizeof(float);
  if (header.magic != protocol::magic || header.kind != protocol::message_kind::item ||
      header.index != index || header.elements != elements || length != expected_length) {
    throw protocol_violation("queued_worker: result " + std::to_string(index) + " from worker " +
                             worker + " came as result " + std::to_string(header.index) + " of " +
                             std::to_string(header.elements) + " elements in " +
                             std::to_string(length) + " bytes; expected " +
                             std::to_string(elements) + " elements in " +
                             std::to_string(expected_length) + " bytes");
  }
}

}  // namespace handoff::patterns::queued_worker
