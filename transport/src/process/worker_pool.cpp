#include "handoff/transport/process/worker_pool.hpp"

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "handoff/transport/process/worker_role.hpp"
#include "handoff/transport/process_state.hpp"
#include "handoff/transport/stop_request.hpp"

namespace handoff::transport {
namespace {

// How long a worker whose channel closed gets to finish dying before it is killed, so that its
// exit status (a crash, an exit code) can be reported rather than guessed.
constexpr auto death_settle_time = std::chrono::seconds(2);
// A dead worker is noticed within this interval even if its channel stays open.
constexpr int liveness_check_ms = 50;

}  // namespace

connection coordinator_connection() {
  return connection(unique_fd(coordinator_channel_fd), "coordinator");
}

worker_pool::worker_pool(std::string name, std::size_t count, const worker_launch& launch)
    : name_(std::move(name)) {
  workers_.reserve(count);
  channels_.reserve(count);
  for (std::size_t index = 0; index < count; ++index) {
    const std::string worker = name_ + "-" + std::to_string(index);
    auto [ours, theirs] = connection::make_pair(worker, "coordinator");
    std::vector<int> inherited{theirs.native_handle()};
    inherited.insert(inherited.end(), launch.extra_fds.begin(), launch.extra_fds.end());
    workers_.push_back(spawned_process::start(worker, worker_command(launch.role, launch.arguments),
                                              {.inherited_fds = inherited}));
    channels_.push_back(std::move(ours));
  }
  std::vector<pid_t> pids;
  for (const auto& worker : workers_)
    pids.push_back(worker.pid());
  cores_ = worker_cores(pids);
}

worker_pool::~worker_pool() {
  channels_.clear();
  for (auto& worker : workers_)
    worker.kill_and_reap();
}

void worker_pool::throw_worker_died(std::size_t index, const std::string& context) {
  auto& worker = workers_[index];
  exit_status status;
  std::string how;
  try {
    status =
        worker.wait_for(std::chrono::duration_cast<std::chrono::milliseconds>(death_settle_time));
    how = status.describe();
  } catch (const deadline_exceeded&) {
    status = worker.poll().value_or(exit_status{.lost = true});
    how = "closed its channel but kept running, so it was killed";
  }
  throw worker_died("worker " + worker.name() + " (pid " + std::to_string(worker.pid()) + ") " +
                        how + (context.empty() ? "" : "; " + context),
                    worker.name(), status);
}

void throw_peer_failure(spawned_process& peer, const process_error& failure) {
  if (dynamic_cast<const stop_requested*>(&failure) != nullptr)
    throw stop_requested(failure.what());
  const std::string who = "worker " + peer.name() + " (pid " + std::to_string(peer.pid()) + ")";
  // A dying peer's channel closes a moment before the process is gone.
  const auto settle_until = deadline_clock::now() + death_settle_time;
  auto status = peer.poll();
  while (!status && deadline_clock::now() < settle_until && !stop_is_requested() &&
         dynamic_cast<const channel_closed*>(&failure) != nullptr) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    status = peer.poll();
  }
  if (status) {
    throw worker_died(who + " " + status->describe() + "; " + failure.what(), peer.name(), *status);
  }
  const std::string detail =
      std::string(failure.what()) + " (" + who + ", " + process_state_text(peer.pid()) + ")";
  if (dynamic_cast<const deadline_exceeded*>(&failure) != nullptr) throw deadline_exceeded(detail);
  if (dynamic_cast<const channel_closed*>(&failure) != nullptr) throw channel_closed(detail);
  throw process_error(detail);
}

void worker_pool::throw_silent(std::span<const std::size_t> awaited) const {
  std::vector<std::size_t> silent(awaited.begin(), awaited.end());
  if (silent.empty()) {
    for (std::size_t index = 0; index < workers_.size(); ++index)
      silent.push_back(index);
  }
  std::string names;
  for (const std::size_t index : silent) {
    names += (names.empty() ? "" : ", ") + workers_[index].name() + " (pid " +
             std::to_string(workers_[index].pid()) + ")";
  }
  throw deadline_exceeded("pool " + name_ + ": no reply before the deadline from " +
                          (awaited.empty() ? "any of its workers: " : "") + names);
}

void worker_pool::check_alive() {
  for (std::size_t index = 0; index < workers_.size(); ++index) {
    if (workers_[index].poll()) throw_worker_died(index, "it ended while the pool needed it");
  }
}

std::size_t worker_pool::wait_for_message(deadline_clock::time_point deadline,
                                          std::span<const std::size_t> awaited) {
  std::vector<pollfd> requests(channels_.size());
  for (std::size_t index = 0; index < channels_.size(); ++index) {
    requests[index] = {channels_[index].native_handle(), POLLIN, 0};
  }
  while (true) {
    for (auto& request : requests)
      request.revents = 0;
    const int ready = ::poll(requests.data(), requests.size(), liveness_check_ms);
    if (ready < 0 && errno != EINTR) {
      throw process_error("waiting for pool " + name_ + ": poll: " + std::strerror(errno));
    }
    for (std::size_t index = 0; ready > 0 && index < requests.size(); ++index) {
      // POLLIN with data, or POLLIN/POLLHUP at end of file: the read that follows tells them apart,
      // and with_worker turns the end of file into worker_died.
      if (requests[index].revents & (POLLIN | POLLHUP | POLLERR)) return index;
    }
    check_alive();
    throw_if_stop_requested("waiting for pool " + name_);
    if (deadline_clock::now() >= deadline) throw_silent(awaited);
  }
}

std::vector<exit_status> worker_pool::shutdown(std::chrono::milliseconds timeout) {
  channels_.clear();
  const auto deadline = deadline_clock::now() + timeout;
  std::vector<exit_status> statuses;
  for (auto& worker : workers_) {
    const auto left = std::max(
        std::chrono::milliseconds(1),
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - deadline_clock::now()));
    try {
      statuses.push_back(worker.wait_for(left));
    } catch (const deadline_exceeded&) {
      statuses.push_back(worker.poll().value_or(exit_status{.lost = true}));
      // The workers share one deadline: a stalled worker was waited for since the shutdown began.
      if (statuses.back().stalled_for) statuses.back().stalled_for = timeout;
    }
  }
  return statuses;
}

void worker_pool::shutdown_expecting_success(std::chrono::milliseconds timeout) {
  const auto statuses = shutdown(timeout);
  for (std::size_t index = 0; index < statuses.size(); ++index) {
    if (!statuses[index].success()) {
      throw worker_died("worker " + workers_[index].name() + " (pid " +
                            std::to_string(workers_[index].pid()) + ") " +
                            statuses[index].describe() + " at shutdown",
                        workers_[index].name(), statuses[index]);
    }
  }
}

}  // namespace handoff::transport
