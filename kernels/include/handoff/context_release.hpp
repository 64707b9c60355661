#pragma once
// The end of a program that exported a CUDA IPC event. The driver keeps a file in /dev/shm
// (cuda.shm.*) for each context that made such an event, and removes it when that context is
// destroyed, not when the process exits; so such a program destroys its contexts itself, last.

namespace handoff {

// Called by whatever makes an event for CUDA IPC in this process.
void note_ipc_event_made() noexcept;

// In a process that made an event for CUDA IPC: destroys its primary context on every GPU where
// one is active, after everything that used them has ended. Elsewhere (no such event, or a child
// forked from the process that made one) does nothing. Reports nothing: programs call it on their
// way out.
void release_ipc_contexts() noexcept;

}  // namespace handoff
