#include "worker_process.hpp"

#include <thread>
#include <utility>

#include "handoff/transport/process/worker_role.hpp"
#include "handoff/transport/stop_request.hpp"
#include "protocol.hpp"

namespace handoff::patterns::queued_worker {

using transport::deadline_clock;
using transport::exit_status;

namespace {

using namespace std::chrono_literals;

struct started {
  transport::spawned_process process;
  transport::connection control;
};

started start_worker(std::string name, const std::string& role,
                     const std::vector<std::string>& arguments, const std::vector<int>& extra_fds) {
  auto [ours, theirs] = transport::connection::make_pair(name, "coordinator");
  std::vector<int> inherited{theirs.native_handle()};
  inherited.insert(inherited.end(), extra_fds.begin(), extra_fds.end());
  auto process = transport::spawned_process::start(
      std::move(name), transport::worker_command(role, arguments), {.inherited_fds = inherited});
  return {std::move(process), std::move(ours)};
}

}  // namespace

worker_process::worker_process(std::string name, const std::string& role,
                               const std::vector<std::string>& arguments,
                               const std::vector<int>& extra_fds)
    : process_([&] {
        auto both = start_worker(std::move(name), role, arguments, extra_fds);
        control_.emplace(std::move(both.control));
        return std::move(both.process);
      }()),
      core_(std::vector<pid_t>{process_.pid()}) {}

void worker_process::check_alive() {
  if (process_.poll()) throw_died("it ended in the middle of a batch");
}

bool worker_process::ended_within(std::chrono::milliseconds settle) {
  const auto until = deadline_clock::now() + settle;
  while (!process_.poll()) {
    if (deadline_clock::now() >= until || transport::stop_is_requested()) return false;
    std::this_thread::sleep_for(5ms);
  }
  return true;
}

std::optional<std::string> worker_process::last_words() {
  if (!control_) return std::nullopt;
  try {
    while (control_->poll(0ms)) {
      const auto report =
          control_->receive_record<protocol::worker_report>(deadline_clock::now() + 100ms);
      if (report.ok == 0) return report.error_text();
    }
  } catch (const std::exception&) {
    // A channel torn by the death has nothing more to say.
  }
  return std::nullopt;
}

std::string worker_process::described() const {
  return "worker " + name() + " (pid " + std::to_string(pid()) + ")";
}

void worker_process::throw_died(const std::string& context) {
  exit_status status{.lost = true};
  std::string how = "stopped answering and was killed";
  if (ended_within(2s)) {
    status = process_.poll().value_or(exit_status{.lost = true});
    how = status.describe();
  } else {
    process_.kill_and_reap();
  }
  std::string message = described() + " " + how;
  if (auto words = last_words()) message += "; it reported: " + *words;
  if (!context.empty()) message += "; " + context;
  throw transport::worker_died(message, name(), status);
}

void worker_process::join(std::chrono::milliseconds timeout) {
  exit_status status;
  try {
    status = process_.wait_for(timeout);
  } catch (const transport::deadline_exceeded&) {
    throw transport::deadline_exceeded("joining " + described() + ": it did not exit within " +
                                       std::to_string(timeout.count()) + " ms, so it was killed");
  }
  if (!status.success()) {
    std::string message = described() + " " + status.describe() + " when joined";
    if (auto words = last_words()) message += "; it reported: " + *words;
    throw transport::worker_died(message, name(), status);
  }
}

void worker_process::close_and_reap(std::chrono::milliseconds timeout) noexcept {
  control_.reset();
  try {
    process_.wait_for(timeout);
  } catch (...) {
    process_.kill_and_reap();
  }
}

}  // namespace handoff::patterns::queued_worker
