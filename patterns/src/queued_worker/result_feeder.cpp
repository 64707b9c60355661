#include "result_feeder.hpp"

#include <unistd.h>

namespace handoff::patterns::queued_worker {

result_feeder::result_feeder(transport::process_queue& queue, std::chrono::milliseconds patience)
    : queue_(queue), patience_(patience), thread_([this] { feed(); }) {}

result_feeder::~result_feeder() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void result_feeder::put(pending_result result) {
  {
    std::lock_guard lock(mutex_);
    if (failure_) std::rethrow_exception(failure_);
    buffered_.push_back(std::move(result));
  }
  changed_.notify_all();
}

void result_feeder::flush(transport::deadline_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  const bool done = changed_.wait_until(
      lock, deadline, [&] { return failure_ || (buffered_.empty() && !writing_); });
  if (failure_) std::rethrow_exception(failure_);
  if (!done) {
    throw transport::deadline_exceeded("the results feeder could not write " +
                                       std::to_string(buffered_.size() + (writing_ ? 1 : 0)) +
                                       " result(s) into " + queue_.purpose() +
                                       " before the deadline: nobody reads them");
  }
}

void result_feeder::feed() {
  const pid_t coordinator = ::getppid();
  // Also ends a put that a stopping worker abandons, rather than waiting out its deadline.
  const transport::peer_watch watch = [this, coordinator] {
    if (::getppid() != coordinator)
      throw transport::channel_closed("the coordinator has gone away");
    std::lock_guard lock(mutex_);
    if (stopping_) throw transport::channel_closed("the worker is exiting");
  };
  while (true) {
    pending_result next;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return stopping_ || !buffered_.empty(); });
      if (stopping_ || failure_) return;
      next = std::move(buffered_.front());
      buffered_.pop_front();
      writing_ = true;
    }
    try {
      const auto values =
          std::span<const float>(next.values.get(), static_cast<std::size_t>(next.header.elements));
      queue_.put_parts({std::as_bytes(std::span(&next.header, 1)), std::as_bytes(values)},
                       transport::deadline_clock::now() + patience_, watch);
    } catch (...) {
      std::lock_guard lock(mutex_);
      failure_ = std::current_exception();
      writing_ = false;
      changed_.notify_all();
      return;
    }
    {
      std::lock_guard lock(mutex_);
      writing_ = false;
    }
    changed_.notify_all();
  }
}

}  // namespace handoff::patterns::queued_worker
