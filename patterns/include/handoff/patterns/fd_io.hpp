#pragma once
// Whole-buffer reads and writes on a file descriptor, each bounded by a deadline. EOF and a broken
// pipe become channel_closed; a missed deadline becomes deadline_exceeded. Nothing blocks forever.

#include <chrono>
#include <cstddef>
#include <span>
#include <string_view>

namespace handoff::patterns {

using deadline_clock = std::chrono::steady_clock;

void write_all(int fd, std::span<const std::byte> bytes, deadline_clock::time_point deadline,
               std::string_view peer);
void read_exact(int fd, std::span<std::byte> bytes, deadline_clock::time_point deadline,
                std::string_view peer);

// A pipe whose two ends close on exec, so a spawned child inherits only what it is handed.
struct pipe_ends {
  int read_end = -1;
  int write_end = -1;
};
pipe_ends make_cloexec_pipe();

// Closes the descriptor if it is open, and marks it closed.
void close_fd(int& fd) noexcept;

}  // namespace handoff::patterns
