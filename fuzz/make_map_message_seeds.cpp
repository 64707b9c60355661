// Writes the seed corpus of map_message_fuzzer (ci/fuzz --seed): map messages as a real
// connection carries them (map_protocol's header and floats, sent with send_parts), for both ends:
// a worker's results for batches of each workload, the coordinator's set-up and tasks; and near
// misses for each check (an item twice or outside the batch, another workload or kind, a float
// count the header does not claim, a message shorter than its header or over the cap, an affine
// order out of range, a task before the set-up).

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "connection_script.hpp"
#include "elementwise/map_protocol.hpp"
#include "script_seed_writer.hpp"
#include "sent_bytes.hpp"

namespace {

using namespace handoff::patterns::elementwise;
using map_protocol::header;
using map_protocol::kind;
using bytes = std::vector<std::byte>;

constexpr auto square = static_cast<std::uint32_t>(extended_workload::square);
constexpr auto neg_b_over_a = static_cast<std::uint32_t>(extended_workload::neg_b_over_a);
constexpr auto affine = static_cast<std::uint32_t>(extended_workload::affine);

// The first call byte: even for the coordinator's end (the workload in the next bits), odd for a
// worker's; the second sizes the coordinator's batch (items 1 + size % 16, or affine n 1 + size %
// 8).
std::uint8_t coordinator_of(std::uint32_t workload) {
  return static_cast<std::uint8_t>(workload * 2);
}
constexpr std::uint8_t worker = 1;

bytes message(kind what, std::uint32_t workload, std::uint64_t index, std::vector<float> values,
              double seconds = 0.001, std::uint64_t claimed = ~std::uint64_t{0}) {
  const header head{what, workload, index, claimed == ~std::uint64_t{0} ? values.size() : claimed,
                    seconds};
  return fuzz_support::sent_by([&](auto& channel, auto deadline) {
    channel.send_parts(
        {map_protocol::bytes_of(head), map_protocol::bytes_of(std::span<const float>(values))},
        deadline);
  });
}

bytes result(std::uint32_t workload, std::uint64_t item, std::size_t floats,
             double seconds = 0.001) {
  return message(kind::result, workload, item, std::vector<float>(floats, 1.5f), seconds);
}

bytes raw(std::vector<std::byte> body) {
  return fuzz_support::sent_by([&](auto& channel, auto deadline) { channel.send(body, deadline); });
}

}  // namespace

int main(int argc, char** argv) {
  const auto seeds = seed_writer::from_arguments(argc, argv);
  if (!seeds) return 2;
  const script_seed_writer write(*seeds);

  // The coordinator's end: every result of a batch, in some order.
  write("results-square-4", {coordinator_of(square), 3},
        {result(square, 2, 1), result(square, 0, 1), result(square, 3, 1), result(square, 1, 1)});
  write("results-neg_b_over_a-2", {coordinator_of(neg_b_over_a), 1},
        {result(neg_b_over_a, 1, 1), result(neg_b_over_a, 0, 1)});
  write("results-affine-3", {coordinator_of(affine), 2},
        {result(affine, 0, 3), result(affine, 2, 3), result(affine, 1, 3)});
  // A worker's end: a batch's set-up, then its tasks.
  write("requests-square", {worker},
        {message(kind::begin_batch, square, 0, {}), message(kind::task, square, 0, {2.0f}),
         message(kind::task, square, 1, {-3.0f})});
  write("requests-neg_b_over_a", {worker},
        {message(kind::begin_batch, neg_b_over_a, 0, {}),
         message(kind::task, neg_b_over_a, 0, {2.0f, 4.0f})});
  write("requests-affine-2", {worker},
        {message(kind::begin_batch, affine, 2, {1, 2, 3, 4, 0.5f, -0.5f}),
         message(kind::task, affine, 0, {1, 1}), message(kind::task, affine, 1, {0, 2})});

  write("near-result-twice", {coordinator_of(square), 1},
        {result(square, 0, 1), result(square, 0, 1)});
  write("near-result-outside-the-batch", {coordinator_of(square), 1}, {result(square, 2, 1)});
  write("near-result-of-another-workload", {coordinator_of(square), 1},
        {result(neg_b_over_a, 0, 1)});
  write("near-result-of-another-kind", {coordinator_of(affine), 0},
        {message(kind::task, affine, 0, {1.0f})});
  write("near-result-short-of-floats", {coordinator_of(affine), 2}, {result(affine, 0, 2)});
  write("near-result-claims-more-floats", {coordinator_of(square), 0},
        {message(kind::result, square, 0, {1.0f}, 0.001, 2)});
  write("near-result-shorter-than-its-header", {coordinator_of(square), 0},
        {raw(bytes(sizeof(header) - 1, std::byte{3}))});
  write("near-result-over-the-cap", {coordinator_of(affine), 7},
        {result(affine, 0, max_map_order + 1)});
  write("near-result-negative-time", {coordinator_of(square), 0}, {result(square, 0, 1, -1.0)});
  write("near-result-time-not-a-number", {coordinator_of(square), 0},
        {result(square, 0, 1, std::numeric_limits<double>::quiet_NaN())});
  write("near-result-infinite-time", {coordinator_of(square), 0},
        {result(square, 0, 1, std::numeric_limits<double>::infinity())});
  write("near-task-before-the-set-up", {worker}, {message(kind::task, square, 0, {2.0f})});
  write("near-unknown-workload", {worker}, {message(kind::begin_batch, 3, 0, {})});
  write("near-affine-order-0", {worker}, {message(kind::begin_batch, affine, 0, {})});
  write("near-affine-order-over-the-cap", {worker},
        {message(kind::begin_batch, affine, max_map_order + 1, {})});
  write("near-affine-set-up-short", {worker},
        {message(kind::begin_batch, affine, 2, {1, 2, 3, 4, 5})});
  write("near-task-of-another-workload", {worker},
        {message(kind::begin_batch, square, 0, {}), message(kind::task, affine, 0, {1.0f})});
  write("near-affine-task-short", {worker},
        {message(kind::begin_batch, affine, 2, {1, 2, 3, 4, 5, 6}),
         message(kind::task, affine, 0, {1.0f})});
  write("near-result-sent-to-a-worker", {worker},
        {message(kind::begin_batch, square, 0, {}), result(square, 0, 1)});
  return 0;
}
