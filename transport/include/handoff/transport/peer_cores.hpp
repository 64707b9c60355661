#pragma once
// Where the processes a spin waits for last ran. A spin whose peer is queued on its own core must
// give that core up for the answer to come; a spin whose peer runs elsewhere need not, and a yield
// there hands the core to whatever else runs on it, for that thread's time slice.

#include <sys/types.h>

#include <chrono>

namespace handoff::transport {

// The processes this one hands work to and waits for: the children it spawned
// (spawned_process counts and forgets them) and, in a worker, its parent.
void count_child_as_peer(pid_t child);
void forget_child_peer(pid_t child) noexcept;
void count_parent_as_peer() noexcept;

// A look reads one /proc file per peer (process_last_core), and peers move between cores far less
// often than a spin turns, so each thread looks at most this often and keeps its answer in between.
inline constexpr auto peer_look_interval = std::chrono::milliseconds(1);

// Whether a peer last ran on the core this thread runs on. Where it cannot tell, true: a yield
// is the safe turn when the peer may need this core.
bool a_peer_last_ran_on_this_core() noexcept;

}  // namespace handoff::transport
