#pragma once
// Typed failures of the process layer, so callers can tell a slow worker from a dead one.

#include <stdexcept>
#include <string>

namespace handoff::transport {

class process_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class spawn_failed : public process_error {
 public:
  using process_error::process_error;
};

class deadline_exceeded : public process_error {
 public:
  using process_error::process_error;
};

// The other end went away: EOF, a broken pipe, or the worker's death.
class channel_closed : public process_error {
 public:
  using process_error::process_error;
};

}  // namespace handoff::transport
