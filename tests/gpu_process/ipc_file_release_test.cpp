// The driver keeps a file in /dev/shm (cuda.shm.<device>.<pid in hex>.<n>) for each context that
// made an event for CUDA IPC, and removes it only with that context. A worker role that made one
// ends its contexts on its way out, so nothing is left behind; a worker that skips that (by
// _exit) shows what would otherwise stay.

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "handoff/transport/ipc/cuda_ipc.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::patterns {
namespace {

using namespace std::chrono_literals;
using transport::deadline_clock;

constexpr std::string_view skip_release = "skip-release";
// Long enough for a worker to create its CUDA context on a busy machine.
constexpr auto reply_timeout = 120s;

// Makes an IPC event, says so, and waits for the coordinator to close its channel.
int ipc_event_maker(std::span<const std::string> arguments) {
  auto channel = transport::coordinator_connection();
  const transport::ipc_exporter exporter(0);
  channel.send_record(std::uint32_t{1}, deadline_clock::now() + 10s);
  try {
    (void)channel.receive_record<std::uint32_t>(deadline_clock::now() + reply_timeout);
  } catch (const transport::channel_closed&) {
  }
  if (!arguments.empty() && arguments.front() == skip_release) {
    std::fflush(nullptr);
    ::_exit(0);
  }
  return 0;
}
HANDOFF_WORKER_ROLE("gpu_ipc_event_maker", ipc_event_maker);

// The process id of a worker that made an IPC event and has exited.
pid_t run_ipc_event_maker(std::vector<std::string> arguments) {
  transport::worker_pool pool("ipc-event-maker", 1,
                              {.role = "gpu_ipc_event_maker", .arguments = std::move(arguments)});
  pool.with_worker(0, [](transport::connection& channel) {
    return channel.receive_record<std::uint32_t>(deadline_clock::now() + reply_timeout);
  });
  const pid_t pid = pool.worker_pid(0);
  pool.shutdown_expecting_success(30s);
  return pid;
}

// The driver's IPC files of process pid in /dev/shm.
std::vector<std::filesystem::path> ipc_files_of(pid_t pid) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "%x", static_cast<unsigned>(pid));
  const std::string pid_part = std::string(".") + hex + ".";
  std::vector<std::filesystem::path> files;
  std::error_code unreadable;
  for (const auto& entry : std::filesystem::directory_iterator("/dev/shm", unreadable)) {
    const std::string name = entry.path().filename().string();
    const auto after_device = name.find('.', std::string_view("cuda.shm.").size());
    if (name.starts_with("cuda.shm.") && after_device != std::string::npos &&
        name.compare(after_device, pid_part.size(), pid_part) == 0)
      files.push_back(entry.path());
  }
  return files;
}

TEST(CudaIpcFiles, AWorkerThatMadeAnIpcEventLeavesNothingInDevShm) {
  HANDOFF_REQUIRE_GPUS(1);
  const auto left_without_release = ipc_files_of(run_ipc_event_maker({std::string(skip_release)}));
  for (const auto& file : left_without_release)
    std::filesystem::remove(file);
  if (left_without_release.empty())
    GTEST_SKIP() << "this driver removes a context's IPC file when its process exits";

  const pid_t released = run_ipc_event_maker({});
  const auto left = ipc_files_of(released);
  EXPECT_TRUE(left.empty()) << "worker " << released << " left " << left.front()
                            << " although its role ended its contexts";
}

}  // namespace
}  // namespace handoff::patterns
