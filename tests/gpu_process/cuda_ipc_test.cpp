// Legacy CUDA IPC across two processes: this test program exports device memory, and a copy of
// itself started in the "gpu_cuda_ipc_consumer" role imports it. cudaIpcOpenMemHandle refuses
// handles from its own process, so the two sides must be different processes.

#include "handoff/transport/ipc/cuda_ipc.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "device_patterns.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/stream.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"
#include "worker_failure.hpp"

namespace handoff::patterns {

using transport::deadline_clock;
using transport::ipc_exporter;

namespace {

using namespace std::chrono_literals;
using test_support::bitwise_mismatches;
using test_support::download;
using test_support::seeded_pattern;
using test_support::upload;

constexpr std::size_t mebibyte = std::size_t{1} << 20;
constexpr std::size_t floats_per_mebibyte = mebibyte / sizeof(float);
// Long enough for a worker to create its CUDA context on a busy machine.
constexpr auto reply_timeout = 120s;

enum class ipc_request : std::uint32_t {
  // Open, check the range holds seeded_pattern(expected_seed), then write overwrite_seed's.
  verify_and_overwrite = 1,
  open_only = 2,
  forget = 3,
};

struct ipc_command {
  ipc_request request;
  transport::ipc_export_record record;
  std::uint64_t expected_seed;
  std::uint64_t overwrite_seed;
};

struct ipc_reply {
  std::uint64_t mismatches;  // elements whose bits differ from the expected pattern
  std::uint64_t open_handles;
  std::uint64_t open_events;
  test_support::worker_failure failure;
};

void serve(const ipc_command& command, transport::ipc_importer& importer, const stream& on,
           ipc_reply& reply) {
  switch (command.request) {
    case ipc_request::verify_and_overwrite: {
      std::byte* const range = importer.open(command.record, on.get());
      const std::size_t count = command.record.bytes / sizeof(float);
      reply.mismatches = bitwise_mismatches(download(range, count, on.get()),
                                            seeded_pattern(count, command.expected_seed));
      upload(range, seeded_pattern(count, command.overwrite_seed), on.get());
      return;
    }
    case ipc_request::open_only:
      importer.open(command.record, on.get());
      on.synchronize();
      return;
    case ipc_request::forget:
      on.synchronize();  // nothing of this process may still touch the mapping
      importer.forget(command.record);
      return;
  }
  reply.failure.set("unknown request " + std::to_string(static_cast<int>(command.request)));
}

// Serves commands until the coordinator closes the channel.
int cuda_ipc_consumer(std::span<const std::string>) {
  auto channel = transport::coordinator_connection();
  transport::ipc_importer importer(0);
  const stream on;
  while (true) {
    ipc_command command{};
    try {
      command = channel.receive_record<ipc_command>(deadline_clock::now() + reply_timeout);
    } catch (const transport::channel_closed&) {
      return 0;
    }
    ipc_reply reply{};
    try {
      serve(command, importer, on, reply);
    } catch (const std::exception& error) {
      reply.failure.set(error.what());
    }
    reply.open_handles = importer.open_handles();
    reply.open_events = importer.open_events();
    channel.send_record(reply, deadline_clock::now() + 10s);
  }
}
HANDOFF_WORKER_ROLE("gpu_cuda_ipc_consumer", cuda_ipc_consumer);

class consumer {
 public:
  consumer() : pool_("ipc-consumer", 1, {.role = "gpu_cuda_ipc_consumer"}) {}

  ipc_reply ask(ipc_request request, const transport::ipc_export_record& record,
                std::uint64_t expected_seed = 0, std::uint64_t overwrite_seed = 0) {
    ipc_command command{};
    command.request = request;
    command.record = record;
    command.expected_seed = expected_seed;
    command.overwrite_seed = overwrite_seed;
    return pool_.with_worker(0, [&](transport::connection& channel) {
      channel.send_record(command, deadline_clock::now() + 10s);
      return channel.receive_record<ipc_reply>(deadline_clock::now() + reply_timeout);
    });
  }
  void shut_down() { pool_.shutdown_expecting_success(30s); }

 private:
  transport::worker_pool pool_;
};

TEST(CudaIpc, InteriorRangeIsSharedAndItsNeighboursStayUntouched) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  device_buffer<float> three_mebibytes(3 * floats_per_mebibyte);
  const std::uint64_t seeds[3] = {101, 202, 303};
  for (int region = 0; region < 3; ++region) {
    upload(three_mebibytes.data() + region * floats_per_mebibyte,
           seeded_pattern(floats_per_mebibyte, seeds[region]), on.get());
  }
  ipc_exporter exporter(0);
  const auto record =
      exporter.export_range(three_mebibytes.data() + floats_per_mebibyte, mebibyte, on.get());
  EXPECT_EQ(record.offset, mebibyte);
  EXPECT_EQ(record.bytes, mebibyte);

  consumer worker;
  constexpr std::uint64_t overwrite_seed = 404;
  const auto reply =
      worker.ask(ipc_request::verify_and_overwrite, record, seeds[1], overwrite_seed);
  ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
  EXPECT_EQ(reply.mismatches, 0u) << "the worker did not see the middle mebibyte's pattern";

  const auto after = download(three_mebibytes.data(), three_mebibytes.size(), on.get());
  const std::span whole(after);
  EXPECT_EQ(bitwise_mismatches(whole.first(floats_per_mebibyte),
                               seeded_pattern(floats_per_mebibyte, seeds[0])),
            0u)
      << "the first mebibyte changed";
  EXPECT_EQ(bitwise_mismatches(whole.subspan(floats_per_mebibyte, floats_per_mebibyte),
                               seeded_pattern(floats_per_mebibyte, overwrite_seed)),
            0u)
      << "the middle mebibyte does not hold the worker's pattern";
  EXPECT_EQ(bitwise_mismatches(whole.last(floats_per_mebibyte),
                               seeded_pattern(floats_per_mebibyte, seeds[2])),
            0u)
      << "the third mebibyte changed";
  worker.shut_down();
}

TEST(CudaIpc, ImporterOpensEachAllocationOnce) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  device_buffer<float> first(2 * floats_per_mebibyte);
  device_buffer<float> second(floats_per_mebibyte);
  ipc_exporter exporter(0);
  const auto first_half = exporter.export_range(first.data(), mebibyte, on.get());
  const auto second_half =
      exporter.export_range(first.data() + floats_per_mebibyte, mebibyte, on.get());
  EXPECT_EQ(first_half.allocation_id, second_half.allocation_id);
  EXPECT_EQ(std::memcmp(&first_half.memory, &second_half.memory, sizeof(cudaIpcMemHandle_t)), 0);
  EXPECT_EQ(exporter.cached_handles(), 1u);

  consumer worker;
  auto reply = worker.ask(ipc_request::open_only, first_half);
  ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
  EXPECT_EQ(reply.open_handles, 1u);
  reply = worker.ask(ipc_request::open_only, second_half);
  ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
  EXPECT_EQ(reply.open_handles, 1u) << "the same allocation was mapped twice";

  const auto other = exporter.export_range(second.data(), mebibyte, on.get());
  EXPECT_NE(other.allocation_id, first_half.allocation_id);
  reply = worker.ask(ipc_request::open_only, other);
  ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
  EXPECT_EQ(reply.open_handles, 2u);
  EXPECT_EQ(reply.open_events, 1u) << "one exporter's event must be opened once";

  EXPECT_EQ(worker.ask(ipc_request::forget, first_half).open_handles, 1u);
  EXPECT_EQ(worker.ask(ipc_request::forget, other).open_handles, 0u);
  worker.shut_down();
}

TEST(CudaIpc, ImporterRejectsARangeOutsideTheAllocation) {
  HANDOFF_REQUIRE_GPUS(1);
  const stream on;
  device_buffer<float> buffer(2 * floats_per_mebibyte);
  ipc_exporter exporter(0);
  const auto honest = exporter.export_range(buffer.data(), mebibyte, on.get());

  consumer worker;
  auto too_long = honest;
  too_long.bytes = 64 * mebibyte;
  auto reply = worker.ask(ipc_request::open_only, too_long);
  ASSERT_TRUE(reply.failure.failed);
  EXPECT_NE(reply.failure.text().find("past the end"), std::string::npos) << reply.failure.text();
  EXPECT_EQ(reply.open_handles, 0u) << "a rejected record left its mapping open";

  auto wrapping = honest;
  wrapping.offset = std::numeric_limits<std::uint64_t>::max() - 1;
  wrapping.bytes = 4;
  reply = worker.ask(ipc_request::open_only, wrapping);
  ASSERT_TRUE(reply.failure.failed);
  EXPECT_NE(reply.failure.text().find("past the end"), std::string::npos) << reply.failure.text();

  reply = worker.ask(ipc_request::open_only, honest);
  EXPECT_FALSE(reply.failure.failed) << reply.failure.text();
  worker.shut_down();
}

TEST(CudaIpc, ExportAndForgetCyclesLeakNoMappingsEventsOrMemory) {
  HANDOFF_REQUIRE_GPUS(1);
  constexpr int cycles = 50;
  constexpr std::size_t floats = 16 * floats_per_mebibyte;
  const stream on;
  ipc_exporter exporter(0);
  consumer worker;
  std::size_t free_after_first_cycle = 0;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    SCOPED_TRACE("cycle " + std::to_string(cycle));
    // A new allocation every cycle, freed at its end, as a producer recycling buffers would.
    device_buffer<float> buffer(floats);
    const auto seed = static_cast<std::uint64_t>(1000 + cycle);
    upload(buffer.data(), seeded_pattern(floats, seed), on.get());
    const auto record = exporter.export_range(buffer.data(), buffer.size_bytes(), on.get());
    auto reply = worker.ask(ipc_request::verify_and_overwrite, record, seed, seed + 5000);
    ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
    EXPECT_EQ(reply.mismatches, 0u);
    EXPECT_EQ(reply.open_handles, 1u);
    EXPECT_EQ(reply.open_events, 1u);
    reply = worker.ask(ipc_request::forget, record);
    ASSERT_FALSE(reply.failure.failed) << reply.failure.text();
    ASSERT_EQ(reply.open_handles, 0u) << "forget left the mapping open";
    ASSERT_EQ(reply.open_events, 1u) << "events are opened again instead of reused";
    if (cycle == 0) {
      std::size_t total = 0;
      HANDOFF_CUDA_CHECK(cudaMemGetInfo(&free_after_first_cycle, &total));
    }
  }
  // A mapping the worker failed to close keeps its 16 MiB alive after the producer's cudaFree, so
  // a leak shows as about 800 MiB less free memory; the margin absorbs one-time driver costs.
  std::size_t free_at_end = 0;
  std::size_t total = 0;
  HANDOFF_CUDA_CHECK(cudaMemGetInfo(&free_at_end, &total));
  EXPECT_GE(free_at_end + 256 * mebibyte, free_after_first_cycle)
      << "device memory fell by " << (free_after_first_cycle - free_at_end) / mebibyte << " MiB";
  worker.shut_down();
}

}  // namespace
}  // namespace handoff::patterns
