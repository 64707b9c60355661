#pragma once
// Which path NCCL took for a row's collectives, from NCCL's own log. A registered window alone does
// not say whether NCCL used its symmetric kernels. With NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS naming
// TUNING and NCCL_DEBUG_FILE set, rank 0 of every communicator writes one line per collective it
// plans:
//   AllGather: 1073741824 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..63}
//   AllGather [Symmetric]: 1073741824 Bytes -> Kernel ... nchannels 32 nthreads 512
// Writing that line is work on every call, so the suite never asks for it itself: a user, or
// ci/multigpu's path step, sets NCCL's variables, and each NCCL row then reports the share of its
// calls that took each path.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/patterns/floor_terms.hpp"

namespace handoff::patterns::multi_gpu {

// The path of one tuning line of `function` ("AllGather"): "ring_simple", "tree_ll128", ...,
// "symmetric"; nullopt for any other line.
std::optional<std::string> nccl_path_of_line(std::string_view line, std::string_view function);

// NCCL's log file when its variables ask for tuning lines in a file, else nullopt: NCCL_DEBUG_FILE
// with %h and %p replaced by this host's name and this process's id, as NCCL replaces them.
struct nccl_log_settings {
  std::string_view debug;       // NCCL_DEBUG
  std::string_view subsystems;  // NCCL_DEBUG_SUBSYS
  std::string_view file;        // NCCL_DEBUG_FILE
};
std::optional<std::filesystem::path> nccl_tuning_log_file(const nccl_log_settings& settings,
                                                          std::string_view host, long process);
// The same, from this process's environment.
std::optional<std::filesystem::path> nccl_tuning_log_file();

// Follows one log file: each read counts the paths of the lines written since the one before.
class nccl_tuning_log {
 public:
  nccl_tuning_log(std::filesystem::path file, std::string function);
  std::map<std::string, std::size_t> read_new_paths();

 private:
  std::filesystem::path file_;
  std::string function_;
  std::uintmax_t read_up_to_ = 0;
};

// nccl_logged_calls (every line counted), and nccl_path_<path> for each path taken: its share of
// those calls.
std::vector<named_figure> nccl_path_figures(const std::map<std::string, std::size_t>& paths);
// True for the figures nccl_path_figures makes.
bool is_nccl_path_figure(std::string_view name);

}  // namespace handoff::patterns::multi_gpu
