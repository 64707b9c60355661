#pragma once
// How a reader that waits for its peer spins before it sleeps: for how long, and how each turn
// offers the core. Both can be switched from the environment for experiments, and handoff_bench
// records them with its settings.

#include <chrono>

namespace handoff::transport {

// A peer usually answers within microseconds, and sleeping until it does (in poll() or on a
// futex) costs a sleep and a wake-up on top, a large share of a hand-off round trip
// (tools/probes/ipc_handoff_probe.cu, blocking against spinning reads; figures:
// docs/design/measured-along-the-way.md, "What a sleep adds to a hand-off round trip"). So a
// reader first re-tests without sleeping for this long: long enough to span the gap between the
// pieces a pool's worker is sent one after another, since a worker that sleeps through each gap
// pays a wake-up for every piece, and on a virtual machine some processes pay far more for them
// than others (docs/design/comparing-runs.md, "The spin's length").
inline constexpr auto spin_before_sleeping = std::chrono::microseconds(400);

// Each turn of a spin offers the core to another thread that waits for it. A process spawned by
// another starts on its parent's core and stays there until the scheduler balances them; a peer
// that spins there for its answer holds the core the answer needs for the whole spin, and each
// hand-off then takes two spins (docs/design/measured-along-the-way.md).
void offer_the_core() noexcept;

// How a spin's turn offers the core, from HANDOFF_SPIN: `yield` (unset or empty too) hands it to
// a thread that waits for it (sched_yield); `pause` only eases off it for a sibling hardware
// thread, as every spin did before yielding; `peer` yields only while a peer process last ran on
// this core (peer_cores.hpp) and pauses otherwise. `pause` and `peer` are switches for
// experiments: a yield can hand the core to a thread that computes, for that thread's time slice.
// Anything else is std::invalid_argument.
enum class spin_turn { yield, pause, peer };
spin_turn spin_turn_from_environment();
const char* name_of(spin_turn turn) noexcept;

// The longest spin HANDOFF_SPIN_US may ask for. A spin looks for neither a stop request nor a
// dead peer, which the sleeping waits check every stop_check_interval and peer_watch_interval, so
// it must stay well inside both.
inline constexpr auto longest_spin = std::chrono::milliseconds(10);

// How long a reader spins before it sleeps, from HANDOFF_SPIN_US: whole microseconds from 0 to
// longest_spin (unset or empty: spin_before_sleeping); 0 tests once and offers the core once. An
// experiment's switch: a longer spin keeps a waiting worker awake through a longer gap between
// messages, and holds its core for as long. Anything else is std::invalid_argument.
std::chrono::microseconds spin_length_from_environment();
// The length this process spins, read from HANDOFF_SPIN_US once (spin_before_sleeping where the
// value is bad: handoff_bench refuses it before any row, and a worker inherits the environment).
std::chrono::microseconds spin_length() noexcept;

}  // namespace handoff::transport
