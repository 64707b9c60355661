#pragma once
// Python's Queue.put in the worker: put returns at once, and a feeder thread writes the buffered
// messages into the results queue's pipe. That is what lets the recipe's worker keep taking items
// while nobody reads its results yet, and it is also why the recipe's gpu_process.join() hangs: a
// process waits, before it exits, until its feeder has written everything, so a worker whose
// results do not fit in the pipe cannot exit until they are read (fix 2 drains them first).

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "handoff/transport/channels/process_queue.hpp"
#include "protocol.hpp"

namespace handoff::patterns::queued_worker {

struct pending_result {
  protocol::message_header header;
  std::unique_ptr<float[]> values;  // header.elements floats, a fresh allocation per item
};

class result_feeder {
 public:
  result_feeder(transport::process_queue& queue, std::chrono::milliseconds patience);
  result_feeder(const result_feeder&) = delete;
  result_feeder& operator=(const result_feeder&) = delete;
  // Abandons what is still buffered: only an exit on a failure path leaves anything.
  ~result_feeder();

  // Buffers the message and returns; a failure of the feeder so far is rethrown here.
  void put(pending_result result);
  // Waits until every buffered message is in the pipe: deadline_exceeded at the deadline.
  void flush(transport::deadline_clock::time_point deadline);

 private:
  void feed();

  transport::process_queue& queue_;
  std::chrono::milliseconds patience_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<pending_result> buffered_;
  bool writing_ = false;
  bool stopping_ = false;
  std::exception_ptr failure_;
  std::thread thread_;  // last: it starts once everything it uses exists
};

}  // namespace handoff::patterns::queued_worker
