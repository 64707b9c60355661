#include "handoff/patterns/multi_gpu/nccl_tuning_log.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <system_error>

namespace handoff::patterns::multi_gpu {
namespace {

constexpr std::string_view logged_calls = "nccl_logged_calls";
constexpr std::string_view path_prefix = "nccl_path_";

std::string lowercase(std::string_view text) {
  std::string lower(text);
  std::ranges::transform(lower, lower.begin(),
                         [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string_view word_after(std::string_view text, std::string_view marker) {
  const auto at = text.find(marker);
  if (at == std::string_view::npos) return {};
  text.remove_prefix(at + marker.size());
  return text.substr(0, text.find_first_of(" \t\r\n"));
}

bool names_tuning(std::string_view subsystems) {
  bool named = false;
  while (!subsystems.empty()) {
    const auto comma = subsystems.find(',');
    const auto item = lowercase(subsystems.substr(0, comma));
    if (item == "^tuning" || item == "^all") return false;
    named = named || item == "tuning" || item == "all";
    subsystems.remove_prefix(comma == std::string_view::npos ? subsystems.size() : comma + 1);
  }
  return named;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace

std::optional<std::string> nccl_path_of_line(std::string_view line, std::string_view function) {
  const auto at = line.find(function);
  if (at == std::string_view::npos) return std::nullopt;
  const std::string_view rest = line.substr(at + function.size());
  if (rest.starts_with(" [Symmetric]: ") && rest.find(" Bytes -> Kernel ") != rest.npos) {
    return "symmetric";
  }
  if (!rest.starts_with(": ") || rest.find(" Bytes -> Algo ") == rest.npos) return std::nullopt;
  const auto algorithm = word_after(rest, " -> Algo ");
  const auto protocol = word_after(rest, " proto ");
  if (algorithm.empty() || protocol.empty()) return std::nullopt;
  return lowercase(algorithm) + "_" + lowercase(protocol);
}

std::optional<std::filesystem::path> nccl_tuning_log_file(const nccl_log_settings& settings,
                                                          std::string_view host, long process) {
  const auto level = lowercase(settings.debug);
  if ((level != "info" && level != "trace") || !names_tuning(settings.subsystems) ||
      settings.file.empty()) {
    return std::nullopt;
  }
  std::string file;
  for (std::size_t i = 0; i < settings.file.size(); ++i) {
    if (settings.file[i] == '%' && i + 1 < settings.file.size()) {
      const char code = settings.file[i + 1];
      if (code == 'h' || code == 'p') {
        file += code == 'h' ? std::string(host) : std::to_string(process);
        ++i;
        continue;
      }
    }
    file += settings.file[i];
  }
  return std::filesystem::path(file);
}

std::optional<std::filesystem::path> nccl_tuning_log_file() {
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) != 0) host[0] = '\0';
  const auto debug = environment("NCCL_DEBUG");
  const auto subsystems = environment("NCCL_DEBUG_SUBSYS");
  const auto file = environment("NCCL_DEBUG_FILE");
  return nccl_tuning_log_file({debug, subsystems, file}, host.data(),
                              static_cast<long>(::getpid()));
}

nccl_tuning_log::nccl_tuning_log(std::filesystem::path file, std::string function)
    : file_(std::move(file)), function_(std::move(function)) {
  std::error_code error;
  const auto size = std::filesystem::file_size(file_, error);
  read_up_to_ = error ? 0 : size;
}

std::map<std::string, std::size_t> nccl_tuning_log::read_new_paths() {
  std::map<std::string, std::size_t> paths;
  std::ifstream log(file_);
  if (!log) return paths;
  log.seekg(static_cast<std::streamoff>(read_up_to_));
  std::string line;
  // Only whole lines: one NCCL is still writing is read next time.
  while (std::getline(log, line) && !log.eof()) {
    read_up_to_ += line.size() + 1;
    if (const auto path = nccl_path_of_line(line, function_)) ++paths[*path];
  }
  return paths;
}

std::vector<named_figure> nccl_path_figures(const std::map<std::string, std::size_t>& paths) {
  std::size_t calls = 0;
  for (const auto& [path, count] : paths)
    calls += count;
  std::vector<named_figure> figures{{std::string(logged_calls), static_cast<double>(calls)}};
  for (const auto& [path, count] : paths) {
    figures.push_back(
        {std::string(path_prefix) + path, static_cast<double>(count) / static_cast<double>(calls)});
  }
  return figures;
}

bool is_nccl_path_figure(std::string_view name) {
  return name == logged_calls || name.starts_with(path_prefix);
}

}  // namespace handoff::patterns::multi_gpu
