#include <stdexcept>
#include <utility>

#include "declared_variants.hpp"
#include "handoff/patterns/queued_worker/gpu_worker_role.hpp"
#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "reply_checks.hpp"
#include "session_state.hpp"

namespace handoff::patterns::queued_worker {
namespace {

using namespace std::chrono_literals;

// Any failure in the middle of a batch leaves the channels in an unknown state: the session is
// broken. A failure that came from the worker's death (a closed channel, a torn queue) is
// reported as that death, naming the worker.
template <class Body>
auto guarded(session_state& state, Body&& body) {
  try {
    return body();
  } catch (const transport::worker_died&) {
    state.broken = true;
    throw;
  } catch (const transport::deadline_exceeded&) {
    state.broken = true;
    throw;
  } catch (const worker_failed&) {
    state.broken = true;
    throw;
  } catch (const protocol_violation&) {
    state.broken = true;
    throw;
  } catch (const std::exception& error) {
    state.broken = true;
    if (state.worker && state.worker->ended_within(2s)) state.worker->throw_died(error.what());
    throw;
  }
}

batch_result run_variant_batch(session_state& state, std::span<const work_item> items,
                               std::span<const std::span<float>> outputs, protocol::ending how) {
  if (state.broken) {
    throw transport::process_error("queued_worker: the session with " + state.worker->name() +
                                   " is broken by an earlier failure");
  }
  if (state.finished) {
    throw transport::process_error("queued_worker: the session with " + state.worker->name() +
                                   " has already stopped its worker");
  }
  validate_batch(state.setup, items, outputs);
  if (how == protocol::ending::stop) state.finished = true;
  return guarded(state, [&] {
    return row_of(state.setup.variant).specifics.run_producer(state, items, outputs, how);
  });
}

}  // namespace

protocol::worker_report session_state::receive_report(std::size_t expected_items) {
  const auto report = worker->control().receive_record<protocol::worker_report>(step_deadline());
  check_report(report, worker->name(), expected_items);
  return report;
}

worker_session::worker_session(const worker_setup& setup)
    : state_(std::make_unique<session_state>()) {
  validate_setup(setup);
  auto& state = *state_;
  state.setup = setup;
  const auto start = wall_clock::now();
  const auto descriptors = row_of(setup.variant).specifics.create_channels(state);
  state.worker.emplace("gpu_worker-" + setup.variant, gpu_worker_role,
                       protocol::worker_arguments::from(setup).encode(), descriptors);
  guarded(state, [&] { return state.receive_report(0); });
  state.startup_seconds = seconds_since(start);
}

worker_session::worker_session(worker_session&&) noexcept = default;
worker_session& worker_session::operator=(worker_session&&) noexcept = default;

worker_session::~worker_session() {
  if (!state_ || !state_->worker) return;
  if (!state_->finished && !state_->broken) {
    try {
      shutdown();
      return;
    } catch (const std::exception&) {
      // A worker that cannot stop cleanly is killed below.
    }
  }
  state_->worker->kill();
}

batch_result worker_session::run_batch(std::span<const work_item> items,
                                       std::span<const std::span<float>> outputs) {
  return run_variant_batch(*state_, items, outputs, protocol::ending::end_of_batch);
}

batch_result worker_session::run_last_batch(std::span<const work_item> items,
                                            std::span<const std::span<float>> outputs) {
  return run_variant_batch(*state_, items, outputs, protocol::ending::stop);
}

void worker_session::shutdown() {
  run_last_batch({}, {});
}

const std::string& worker_session::worker_name() const {
  return state_->worker->name();
}

pid_t worker_session::worker_pid() const {
  return state_->worker->pid();
}

double worker_session::startup_seconds() const {
  return state_->startup_seconds;
}

bool worker_session::finished() const {
  return state_->finished || state_->broken;
}

batch_result run_once(const worker_setup& setup, std::span<const work_item> items,
                      std::span<const std::span<float>> outputs) {
  validate_setup(setup);
  validate_batch(setup, items, outputs);
  const auto start = wall_clock::now();
  worker_session session(setup);
  auto result = session.run_last_batch(items, outputs);
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace handoff::patterns::queued_worker
