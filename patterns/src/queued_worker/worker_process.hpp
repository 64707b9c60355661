#pragma once
// The coordinator's handle on its one GPU worker: the spawned program, its control channel, and
// the recipe's gpu_process.join() with a deadline. A death is worker_died, naming the worker and
// how it ended, with whatever the worker managed to report about it.

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "handoff/transport/channels/connection.hpp"
#include "handoff/transport/process/worker_cores.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/spawned_process.hpp"

namespace handoff::patterns::queued_worker {

class worker_process {
 public:
  // Starts the program in role with arguments; extra_fds become its descriptors 4, 5, ...
  worker_process(std::string name, const std::string& role,
                 const std::vector<std::string>& arguments, const std::vector<int>& extra_fds);

  const std::string& name() const noexcept { return process_.name(); }
  pid_t pid() const noexcept { return process_.pid(); }
  transport::connection& control() { return *control_; }

  // worker_died if the worker has ended.
  void check_alive();
  // The recipe's gpu_process.join(): waits for the worker to exit. Past the timeout the worker is
  // killed and deadline_exceeded thrown; an exit other than 0 is worker_died.
  void join(std::chrono::milliseconds timeout);
  // Whether the worker ended, waiting up to settle for it to finish dying.
  bool ended_within(std::chrono::milliseconds settle);
  // worker_died for a worker that has ended, with context and its own report if it sent one.
  [[noreturn]] void throw_died(const std::string& context);
  // Closes the control channel (the worker's cue to exit between batches) and waits up to timeout;
  // then kills. Never throws.
  void close_and_reap(std::chrono::milliseconds timeout) noexcept;
  void kill() noexcept { process_.kill_and_reap(); }

 private:
  // "worker NAME (pid N)": how every error about it names it.
  std::string described() const;
  std::optional<std::string> last_words();

  // Declared first: the constructor opens the channel while it starts the process.
  std::optional<transport::connection> control_;
  transport::spawned_process process_;
  // Its own core while it lives where asked, as a pool's workers get (worker_cores.hpp).
  transport::worker_cores core_;
};

}  // namespace handoff::patterns::queued_worker
