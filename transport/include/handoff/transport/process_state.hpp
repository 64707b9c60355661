#pragma once
// What /proc says a process (or a thread, by its id) is doing.

#include <optional>
#include <string>
#include <vector>

namespace handoff::transport {

// The state letter of /proc/ID/stat ('R' running, 'S' sleeping, 'T' stopped, 'Z' zombie, ...):
// nullopt when there is no such process, or it is on its way out; '?' when it cannot be read.
std::optional<char> process_state_letter(int id) noexcept;

// The core it last ran on (field 39 of /proc/ID/stat), or -1 where there is none to read.
int process_last_core(int id) noexcept;

// Its parent's id (field 4 of /proc/ID/stat): nullopt when it is gone or cannot be read.
std::optional<int> process_parent(int id) noexcept;

// The state in words, for error messages ("sleeping", "stopped by a signal").
std::string process_state_text(int id);

// The ids of its threads (the entries of /proc/ID/task), ascending; none when it is gone or
// /proc cannot be read.
std::vector<int> process_threads(int id);

}  // namespace handoff::transport
