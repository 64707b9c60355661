#pragma once
// A pool of spawned workers, each connected to the coordinator by its own duplex pipe. Every wait
// has a deadline. A worker that dies is detected by the end of file on its channel or by its exit
// status, and reported by name together with how it ended. Destruction kills and reaps whatever is
// still running, so no worker outlives its pool and no zombie is left behind.

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/process/worker_cores.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::transport {

// A worker ended (or closed its channel) while the coordinator still needed it.
class worker_died : public channel_closed {
 public:
  worker_died(std::string message, std::string worker, exit_status status)
      : channel_closed(std::move(message)), worker_(std::move(worker)), status_(status) {}
  const std::string& worker() const noexcept { return worker_; }
  const exit_status& status() const noexcept { return status_; }

 private:
  std::string worker_;
  exit_status status_;
};

// A failure on the channel to a lone peer process (a ceiling's sink, a probe), explained by the
// peer's fate: once it has ended, worker_died naming it with its pid and how it ended (its signal,
// its exit code), not a bare broken pipe or end of file; while it still runs, the same failure
// with its pid and what it is doing (sleeping, stopped).
[[noreturn]] void throw_peer_failure(spawned_process& peer, const process_error& failure);

struct worker_launch {
  std::string role;
  std::vector<std::string> arguments = {};
  // Given to every worker after its channel (descriptor 3), as descriptors 4, 5, ...
  std::vector<int> extra_fds = {};
};

// A worker finds its channel to the coordinator here.
inline constexpr int coordinator_channel_fd = first_inherited_fd;
connection coordinator_connection();

class worker_pool {
 public:
  // Starts count workers named "<name>-<index>".
  worker_pool(std::string name, std::size_t count, const worker_launch& launch);
  worker_pool(worker_pool&&) noexcept = default;
  worker_pool& operator=(worker_pool&&) noexcept = default;
  ~worker_pool();

  std::size_t size() const noexcept { return workers_.size(); }
  const std::string& worker_name(std::size_t index) const { return workers_[index].name(); }
  pid_t worker_pid(std::size_t index) const { return workers_[index].pid(); }
  connection& channel(std::size_t index) { return channels_[index]; }
  // The core each worker is held on (worker_cores.hpp); empty where the scheduler places them.
  std::span<const int> cores() const noexcept { return cores_.cores(); }

  // Runs action(channel) for one worker; a channel that closes under it becomes worker_died.
  template <class Action>
  decltype(auto) with_worker(std::size_t index, Action&& action) {
    try {
      return action(channels_[index]);
    } catch (const worker_died&) {
      throw;
    } catch (const channel_closed& error) {
      throw_worker_died(index, error.what());
    }
  }

  // The index of a worker with a message waiting. A worker whose channel reached end of file, or
  // whose process ended, is worker_died; none ready by the deadline is deadline_exceeded, naming
  // the workers in awaited (those that owe a reply; empty: every worker) with their pids.
  std::size_t wait_for_message(deadline_clock::time_point deadline,
                               std::span<const std::size_t> awaited = {});

  // Throws worker_died if any worker has ended.
  void check_alive();

  // Closes every channel, which each worker takes as its cue to exit, and waits for all of them.
  // A worker still running at the deadline is killed. Returns how each ended.
  std::vector<exit_status> shutdown(std::chrono::milliseconds timeout);
  // As shutdown, but any worker that did not exit with code 0 is worker_died.
  void shutdown_expecting_success(std::chrono::milliseconds timeout);

 private:
  [[noreturn]] void throw_worker_died(std::size_t index, const std::string& context);
  [[noreturn]] void throw_silent(std::span<const std::size_t> awaited) const;

  std::string name_;
  std::vector<spawned_process> workers_;
  std::vector<connection> channels_;
  worker_cores cores_;
};

}  // namespace handoff::transport
