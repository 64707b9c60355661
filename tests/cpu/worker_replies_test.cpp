// What the coordinators take from their workers' replies (the checks in patterns/src/*/
// reply_checks, task_replies, sum_replies, replies, receiver_replies): a reply that claims a time
// no stage can take, or a verification that does not add up, is refused with the pattern's typed
// error instead of joining a row. Found by fuzz/worker_replies_fuzzer.cpp: every one of these was
// taken, its times added to the row's stages and the verification counted as passed.

#include <gtest/gtest.h>

#include <limits>
#include <optional>

#include "handoff/transport/channels/channel_errors.hpp"
#include "independent_tasks/task_replies.hpp"
#include "pool_prep/replies.hpp"
#include "postproc_split/sum_replies.hpp"
#include "queued_worker/reply_checks.hpp"
#include "tensor_transfer/receiver_replies.hpp"

namespace handoff::patterns {
namespace {

constexpr double impossible_times[] = {-1.0, std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity()};

TEST(WorkerReplies, PossibleSecondsAreFiniteAndNotNegative) {
  EXPECT_TRUE(possible_seconds(0.0));
  EXPECT_TRUE(possible_seconds(12.5));
  for (const double seconds : impossible_times)
    EXPECT_FALSE(possible_seconds(seconds)) << seconds;
}

TEST(WorkerReplies, AQueuedWorkerReportWithAnImpossibleStageTimeIsAProtocolViolation) {
  queued_worker::protocol::worker_report report;
  report.items = 2;
  EXPECT_NO_THROW(queued_worker::check_report(report, "w", 2));
  for (const double seconds : impossible_times) {
    report.stages.kernel = seconds;
    EXPECT_THROW(queued_worker::check_report(report, "w", 2), queued_worker::protocol_violation)
        << seconds;
  }
}

TEST(WorkerReplies, ATaskReplyWithAnImpossibleTimeIsRefused) {
  independent_tasks::task_reply reply{.task = 3};
  EXPECT_NO_THROW(independent_tasks::check_reply(reply, 3, "w"));
  for (const double seconds : impossible_times) {
    reply.h2d = seconds;
    EXPECT_THROW(independent_tasks::check_reply(reply, 3, "w"), transport::process_error)
        << seconds;
  }
}

TEST(WorkerReplies, ASumReplyWithAnImpossibleTimeIsRefused) {
  postproc_split::sum_reply reply{.chunk_index = 1};
  EXPECT_NO_THROW(postproc_split::check_sum_reply(reply, std::size_t{1}, "w"));
  for (const double seconds : impossible_times) {
    reply.post_seconds = seconds;
    EXPECT_THROW(postproc_split::check_sum_reply(reply, std::size_t{1}, "w"),
                 transport::process_error)
        << seconds;
  }
}

TEST(WorkerReplies, PoolPrepRepliesWithAnImpossibleTimeAreChannelCorrupted) {
  pool_prep::protocol::map_reply_header header;
  header.chunk = 2;
  header.count = 4;
  header.ok = 1;
  const std::uint64_t length = sizeof(header) + 4 * sizeof(float);
  EXPECT_NO_THROW(pool_prep::check_map_reply(header, length, 2, 4, "w"));
  pool_prep::protocol::ring_reply ring;
  ring.ok = 1;
  ring.chunks_prepared = 5;
  EXPECT_NO_THROW(pool_prep::check_ring_reply(ring, 5, "w"));
  for (const double seconds : impossible_times) {
    header.kernel = seconds;
    EXPECT_THROW(pool_prep::check_map_reply(header, length, 2, 4, "w"),
                 transport::channel_corrupted)
        << seconds;
    ring.prep = seconds;
    EXPECT_THROW(pool_prep::check_ring_reply(ring, 5, "w"), transport::channel_corrupted)
        << seconds;
  }
}

TEST(WorkerReplies, AReceiverReplyWithAnImpossibleStageTimeIsRefused) {
  reply_record reply;
  reply.ok = 1;
  EXPECT_NO_THROW(check_reply(reply, "row", "w"));
  for (const double seconds : impossible_times) {
    reply.stages.d2h = seconds;
    EXPECT_THROW(check_reply(reply, "row", "w"), transport::process_error) << seconds;
  }
}

reply_record verified(std::uint64_t checked, std::uint64_t mismatches,
                      std::optional<std::uint64_t> first) {
  reply_record reply;
  reply.ok = 1;
  reply.checked = checked;
  reply.mismatches = mismatches;
  reply.has_first_mismatch = first ? 1 : 0;
  reply.first_mismatch = first.value_or(0);
  return reply;
}

TEST(WorkerReplies, AVerificationThatDoesNotAddUpIsRefusedNotPassed) {
  EXPECT_TRUE(verification_of(verified(64, 0, std::nullopt), 64, "w").passed());
  const auto failed = verification_of(verified(64, 2, 7), 64, "w");
  EXPECT_EQ(failed.mismatches, 2u);
  ASSERT_TRUE(failed.first.has_value());
  EXPECT_EQ(failed.first->index, 7u);

  EXPECT_THROW(verification_of(verified(0, 0, std::nullopt), 64, "w"), transport::process_error)
      << "nothing checked";
  EXPECT_THROW(verification_of(verified(32, 0, std::nullopt), 64, "w"), transport::process_error)
      << "half checked";
  EXPECT_THROW(verification_of(verified(64, 3, std::nullopt), 64, "w"), transport::process_error)
      << "mismatches without a first";
  EXPECT_THROW(verification_of(verified(64, 0, 5), 64, "w"), transport::process_error)
      << "a first without mismatches";
  EXPECT_THROW(verification_of(verified(64, 1, 64), 64, "w"), transport::process_error)
      << "a first outside the destination";
  EXPECT_THROW(verification_of(verified(64, 65, 0), 64, "w"), transport::process_error)
      << "more mismatches than bytes";
}

}  // namespace
}  // namespace handoff::patterns
