#pragma once
// Typed failures of the cross-process channels (process_queue, shm_ring), named after Python's
// multiprocessing exceptions where one exists, so callers can tell "nothing yet" from "broken".

#include "handoff/transport/process_errors.hpp"

namespace handoff::transport {

// Python's queue.Full: a put that found no room before its deadline. Nothing was written.
class queue_full : public process_error {
 public:
  using process_error::process_error;
};

// Python's queue.Empty: a get that found no message before its deadline. Nothing was read.
class queue_empty : public process_error {
 public:
  using process_error::process_error;
};

// Python's ValueError("task_done() called too many times").
class queue_too_many_task_done : public process_error {
 public:
  using process_error::process_error;
};

// The queue's byte stream is torn and can never be trusted again: a process died holding a queue
// lock in the middle of a message, or a deadline or a failed peer check cut a message short. Not a
// channel_closed on purpose: worker_pool::with_worker would misreport that as its worker's death.
class queue_broken : public process_error {
 public:
  using process_error::process_error;
};

// The descriptors or shared header given to attach are not the channel they claim to be.
class channel_attach_error : public process_error {
 public:
  using process_error::process_error;
};

// A geometry that cannot be built: zero slots, or sizes that overflow.
class channel_geometry_error : public process_error {
 public:
  using process_error::process_error;
};

// This process used the channel against its protocol: a slot published out of order, a task_done
// on a queue that is not joinable, and the like. A bug in the caller, not in the peer.
class channel_usage_error : public process_error {
 public:
  using process_error::process_error;
};

// The peer wrote something into shared state that cannot be true (an out-of-range count or size).
class channel_corrupted : public process_error {
 public:
  using process_error::process_error;
};

// A word of shared synchronisation state (a lock, a mark, a count a lock guards) holds a value
// that is none of its states: another process wrote over it. The message names the structure.
class shared_state_corrupted : public channel_corrupted {
 public:
  using channel_corrupted::channel_corrupted;
};

}  // namespace handoff::transport
