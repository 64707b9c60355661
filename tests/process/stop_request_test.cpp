// A stop request (the user's Ctrl-C, handled by handoff_bench) wakes every wait a coordinator makes
// on its workers within a fraction of a second, and a worker killed for not finishing in time is
// reported as stalled, with how long it was waited for and what it was doing.

#include "handoff/transport/stop_request.hpp"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <string>
#include <thread>

#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process/worker_role.hpp"
#include "support/leak_checks.hpp"

namespace handoff::transport {
namespace {

using namespace std::chrono_literals;

// Never answers, and never exits by itself within a test.
int sleeping_worker(std::span<const std::string>) {
  std::this_thread::sleep_for(60s);
  return 0;
}
HANDOFF_WORKER_ROLE("stop_sleeping", sleeping_worker);

// Asks for a stop after a delay, and forgets it when the test ends.
class StopRequest : public testing::Test {
 protected:
  void TearDown() override {
    if (requester_.joinable()) requester_.join();
    clear_stop_request();
  }
  void request_stop_after(std::chrono::milliseconds delay) {
    requester_ = std::thread([delay] {
      std::this_thread::sleep_for(delay);
      request_stop();
    });
  }

 private:
  std::thread requester_;
};

// Runs wait, which must end in stop_requested well before its own deadline of a minute.
template <class Wait>
void expect_cut_short(Wait&& wait) {
  const auto start = deadline_clock::now();
  EXPECT_THROW(wait(), stop_requested);
  EXPECT_LT(deadline_clock::now() - start, 2s);
}

TEST_F(StopRequest, EndsAReadFromASilentPeer) {
  auto pipe = make_cloexec_pipe();
  std::byte byte{};
  request_stop_after(200ms);
  expect_cut_short([&] {
    read_exact(pipe.read_end.get(), std::span(&byte, 1), deadline_clock::now() + 60s, "peer");
  });
}

TEST_F(StopRequest, EndsAWaitForAPoolsReply) {
  worker_pool pool("silent", 2, {.role = "stop_sleeping"});
  request_stop_after(200ms);
  expect_cut_short([&] { pool.wait_for_message(deadline_clock::now() + 60s); });
}

TEST_F(StopRequest, EndsAWaitForAWorkerToFinishAndKillsIt) {
  auto worker = spawned_process::start("sleeper", worker_command("stop_sleeping", {}));
  const pid_t pid = worker.pid();
  request_stop_after(200ms);
  expect_cut_short([&] { worker.wait_for(60s); });
  EXPECT_FALSE(leak_checks::process_exists(pid));
}

TEST(StalledWorker, IsReportedAsStalledWithHowLongNotAsKilled) {
  worker_pool pool("slow", 1, {.role = "stop_sleeping"});
  const std::string pid = std::to_string(pool.worker_pid(0));
  try {
    pool.shutdown_expecting_success(300ms);
    ADD_FAILURE() << "a worker that never exits passed its shutdown";
  } catch (const worker_died& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("(pid " + pid + ") stalled"), std::string::npos) << message;
    EXPECT_NE(message.find("300 ms"), std::string::npos) << message;
    EXPECT_NE(message.find("sleeping"), std::string::npos) << message;
  }
}

TEST(StalledWorker, StoppedBySIGSTOPIsSaidSo) {
  worker_pool pool("stopped", 1, {.role = "stop_sleeping"});
  ::kill(pool.worker_pid(0), SIGSTOP);
  // The stop takes effect when the kernel next schedules it.
  std::this_thread::sleep_for(100ms);
  try {
    pool.shutdown_expecting_success(300ms);
    ADD_FAILURE() << "a stopped worker passed its shutdown";
  } catch (const worker_died& error) {
    EXPECT_NE(std::string(error.what()).find("stopped by a signal"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace handoff::transport
