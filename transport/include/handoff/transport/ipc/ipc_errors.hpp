#pragma once
// Typed failures of sharing device memory between processes, so callers can tell memory that a
// mechanism cannot share from a peer that sent a record no honest exporter would.

#include <stdexcept>

namespace handoff::transport {

class ipc_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Memory that legacy CUDA IPC cannot share (pool, managed, host memory, a range past the end of its
// allocation); the message names which and what to use instead.
class ipc_unsupported_memory : public ipc_error {
 public:
  using ipc_error::ipc_error;
};

// A record or descriptor from another process that does not describe what was mapped. Input that
// crosses a process boundary is untrusted.
class ipc_record_invalid : public ipc_error {
 public:
  using ipc_error::ipc_error;
};

// The device or driver cannot share memory the way that was asked for.
class ipc_unsupported_device : public ipc_error {
 public:
  using ipc_error::ipc_error;
};

}  // namespace handoff::transport
