// A cuMem allocation crosses to another process as a POSIX file descriptor over SCM_RIGHTS: this
// test program exports it, and a copy of itself in the "gpu_vmm_fd_consumer" role imports it,
// checks the contents bit for bit and writes a new pattern that the exporter must then see.

#include "handoff/transport/ipc/vmm_shareable.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "device_patterns.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"
#include "worker_failure.hpp"

namespace handoff::patterns {

using transport::deadline_clock;
using transport::vmm_allocation;
using transport::worker_pool;

namespace {

using namespace std::chrono_literals;
using test_support::bitwise_mismatches;
using test_support::download;
using test_support::seeded_pattern;
using test_support::upload;

constexpr auto reply_timeout = 120s;

// Sent just before the descriptor itself.
struct vmm_command {
  std::uint64_t mapped_bytes;  // what the importer maps
  std::uint64_t bytes;         // what holds the pattern
  std::uint64_t expected_seed;
  std::uint64_t overwrite_seed;
};

struct vmm_reply {
  std::uint64_t mismatches;
  test_support::worker_failure failure;
};

vmm_reply import_verify_and_overwrite(transport::connection& channel, const stream& on) {
  const auto command = channel.receive_record<vmm_command>(deadline_clock::now() + reply_timeout);
  const transport::unique_fd descriptor = channel.receive_fd(deadline_clock::now() + 10s);
  vmm_reply reply{};
  try {
    const auto imported = transport::vmm_import::open(descriptor.get(), command.mapped_bytes, 0);
    const std::size_t count = command.bytes / sizeof(float);
    reply.mismatches = bitwise_mismatches(download(imported.data(), count, on.get()),
                                          seeded_pattern(count, command.expected_seed));
    upload(imported.data(), seeded_pattern(count, command.overwrite_seed), on.get());
  } catch (const std::exception& error) {
    reply.failure.set(error.what());
  }
  return reply;
}

// Serves imports until the coordinator closes the channel.
int vmm_fd_consumer(std::span<const std::string>) {
  auto channel = transport::coordinator_connection();
  const stream on;
  while (true) {
    try {
      if (!channel.poll(std::chrono::duration_cast<std::chrono::milliseconds>(reply_timeout))) {
        return 3;  // the coordinator went quiet without closing the channel
      }
      const vmm_reply reply = import_verify_and_overwrite(channel, on);
      channel.send_record(reply, deadline_clock::now() + 10s);
    } catch (const transport::channel_closed&) {
      return 0;
    }
  }
}
HANDOFF_WORKER_ROLE("gpu_vmm_fd_consumer", vmm_fd_consumer);

// Sends the allocation's descriptor with the command, and returns the worker's reply.
vmm_reply send_to_worker(worker_pool& pool, const vmm_allocation& allocation,
                         const vmm_command& command) {
  const transport::unique_fd descriptor = allocation.export_descriptor();
  return pool.with_worker(0, [&](transport::connection& channel) {
    channel.send_record(command, deadline_clock::now() + 10s);
    channel.send_fd(descriptor.get(), deadline_clock::now() + 10s);
    return channel.receive_record<vmm_reply>(deadline_clock::now() + reply_timeout);
  });
}

std::optional<vmm_allocation> allocation_or_skip_reason(std::size_t bytes, std::string& reason) {
  try {
    return vmm_allocation::create(0, bytes);
  } catch (const transport::ipc_unsupported_device& error) {
    reason = error.what();
    return std::nullopt;
  }
}

TEST(VmmDescriptor, WorkerSeesTheContentsAndItsWritesComeBack) {
  HANDOFF_REQUIRE_GPUS(1);
  // Not a whole number of granules, so the rounding is exercised.
  constexpr std::size_t bytes = (std::size_t{3} << 20) + 4096;
  std::string reason;
  auto allocation = allocation_or_skip_reason(bytes, reason);
  if (!allocation) GTEST_SKIP() << reason;
  EXPECT_EQ(allocation->bytes(), bytes);
  EXPECT_GE(allocation->mapped_bytes(), bytes);

  const stream on;
  constexpr std::size_t count = bytes / sizeof(float);
  constexpr std::uint64_t seed = 7;
  constexpr std::uint64_t overwrite_seed = 8;
  upload(allocation->data(), seeded_pattern(count, seed), on.get());

  worker_pool pool("vmm-consumer", 1, {.role = "gpu_vmm_fd_consumer"});
  const auto reply =
      send_to_worker(pool, *allocation, {allocation->mapped_bytes(), bytes, seed, overwrite_seed});
  ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
  EXPECT_EQ(reply.mismatches, 0u) << "the worker did not see the exported contents";
  EXPECT_EQ(bitwise_mismatches(download(allocation->data(), count, on.get()),
                               seeded_pattern(count, overwrite_seed)),
            0u)
      << "the worker's writes did not reach the exporter's memory";
  pool.shutdown_expecting_success(30s);
}

TEST(VmmDescriptor, ImporterRejectsASizeThatIsNotWholeGranules) {
  HANDOFF_REQUIRE_GPUS(1);
  std::string reason;
  auto allocation = allocation_or_skip_reason(std::size_t{1} << 20, reason);
  if (!allocation) GTEST_SKIP() << reason;

  worker_pool pool("vmm-consumer", 1, {.role = "gpu_vmm_fd_consumer"});
  const auto reply =
      send_to_worker(pool, *allocation, {allocation->mapped_bytes() - 1, 1024, 7, 8});
  ASSERT_TRUE(reply.failure.failed);
  EXPECT_NE(reply.failure.text().find("granularity"), std::string::npos) << reply.failure.text();

  // More than the allocation holds is refused by the driver; the worker survives it.
  const auto too_large =
      send_to_worker(pool, *allocation, {allocation->mapped_bytes() * 4, 1024, 7, 8});
  EXPECT_TRUE(too_large.failure.failed);
  pool.shutdown_expecting_success(30s);
}

}  // namespace
}  // namespace handoff::patterns
