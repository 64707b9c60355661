#pragma once
// The results file is the one thing a run exists to leave behind, so it is written only where the
// user asked, never through a link, never over anything but a regular file, and a run that could
// not write it fails. Each write goes through a staging file of its own, created exclusively in
// the target's directory, written, synced and renamed over the target: a reader sees the previous
// file or the new one, never half of one, and two runs given one path never share a staging file.

#include <stdexcept>
#include <string>
#include <string_view>

namespace handoff::bench {

class results_file_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Refuses, before anything is measured, a path whose directory is missing or cannot take a new
// file, and a path at which anything but a regular file stands (a link, a device, a directory).
// flag names the option in the message ("--benchmark_out").
void check_results_path(std::string_view flag, const std::string& path);

// Replaces path with text as described above; results_file_error, with the cause, when it cannot.
// A failed write leaves no staging file behind.
void replace_file_atomically(const std::string& path, std::string_view text);

}  // namespace handoff::bench
