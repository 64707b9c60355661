#include "manifest.hpp"

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>

#include "build_info.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/transport/process/worker_cores.hpp"
#include "handoff/transport/shared_library.hpp"
#include "nccl_environment.hpp"

extern char** environ;  // NOLINT: POSIX declares it nowhere in C++

namespace handoff::bench {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.starts_with("model name")) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line
                                        : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

// The first line of a sysfs file, or "unknown" where the kernel does not expose it.
std::string first_line_of(const char* path) {
  std::ifstream file(path);
  std::string line;
  return std::getline(file, line) && !line.empty() ? line : "unknown";
}

// The host facts that decide where a process's pages land, which can make one figure bimodal from
// process to process: the NUMA nodes ("0-1") and the transparent huge page mode ("madvise", the
// one in brackets of "always [madvise] never").
std::string numa_nodes() {
  return first_line_of("/sys/devices/system/node/online");
}

std::string transparent_hugepages() {
  const std::string modes = first_line_of("/sys/kernel/mm/transparent_hugepage/enabled");
  const auto open = modes.find('[');
  const auto close = modes.find(']', open);
  if (open == std::string::npos || close == std::string::npos) return modes;
  return modes.substr(open + 1, close - open - 1);
}

// Asks NVML (loaded only here, and only on a machine with a driver) and falls back on procfs,
// which some sandboxes do not mount.
std::string driver_version_from_nvml() {
  try {
    void* nvml = transport::open_shared_library("libnvidia-ml.so.1", "");
    int (*init)() = nullptr;
    int (*version_of)(char*, unsigned) = nullptr;
    int (*shutdown)() = nullptr;
    transport::resolve_symbol(nvml, "libnvidia-ml.so.1", "nvmlInit_v2", init);
    transport::resolve_symbol(nvml, "libnvidia-ml.so.1", "nvmlSystemGetDriverVersion", version_of);
    transport::resolve_symbol(nvml, "libnvidia-ml.so.1", "nvmlShutdown", shutdown);
    if (init() != 0) return {};
    std::array<char, 96> text{};
    const bool read = version_of(text.data(), text.size()) == 0;
    shutdown();
    return read ? std::string(text.data()) : std::string();
  } catch (const transport::library_load_error&) {
    return {};
  }
}

// The kernel module's version ("580.95.05"): the figure a driver upgrade changes, which the CUDA
// driver API version ("13.0") does not always. Nightly history treats a change of it as a known
// break rather than a regression.
std::string driver_version() {
  if (auto version = driver_version_from_nvml(); !version.empty()) return version;
  std::ifstream procfs("/proc/driver/nvidia/version");
  std::string line;
  std::getline(procfs, line);
  const auto module = line.find("Kernel Module");
  if (module == std::string::npos) return "unknown";
  const auto start = line.find_first_not_of(' ', module + 13);
  if (start == std::string::npos) return "unknown";
  return line.substr(start, line.find(' ', start) - start);
}

std::string version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::string peer_topology(int count) {
  if (count < 2) return "single GPU";
  const auto matrix = peer_access_matrix(count);
  std::string text;
  for (int from = 0; from < count; ++from) {
    for (int to = 0; to < count; ++to) {
      if (from == to) continue;
      if (!text.empty()) text += ", ";
      text +=
          std::to_string(from) + "->" + std::to_string(to) + (matrix[from][to] ? ":p2p" : ":none");
    }
  }
  return text;
}

void add_gpu_entries(std::map<std::string, std::string>& manifest, int count) {
  int driver = 0;
  int runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  manifest["cuda_driver_api"] = version_text(driver);
  manifest["driver_version"] = driver_version();
  manifest["cuda_runtime"] = version_text(runtime);
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    const auto gpu = describe_gpu(ordinal);
    const std::string key = "gpu" + std::to_string(ordinal) + "_";
    manifest[key + "name"] = gpu.name;
    manifest[key + "uuid"] = gpu.uuid;
    manifest[key + "pci_bus_id"] = gpu.pci_bus_id;
    manifest[key + "compute_capability"] = std::to_string(gpu.compute_capability_major) + "." +
                                           std::to_string(gpu.compute_capability_minor);
    manifest[key + "multiprocessors"] = std::to_string(gpu.multiprocessors);
    manifest[key + "memory_bytes"] = std::to_string(gpu.memory_bytes);
    manifest[key + "sm_clock_max_mhz"] = std::to_string(gpu.sm_clock_max_khz / 1000);
    manifest[key + "memory_clock_max_mhz"] = std::to_string(gpu.memory_clock_max_khz / 1000);
    manifest[key + "memory_bus_width_bits"] = std::to_string(gpu.memory_bus_width_bits);
    manifest[key + "pcie_link"] = gpu.pcie_link;
  }
  manifest["peer_topology"] = peer_topology(count);
}

}  // namespace

std::map<std::string, std::string> collect_manifest(const bench_environment& environment) {
  std::map<std::string, std::string> manifest;
  manifest["version"] = build_info::version;
  manifest["git_commit"] = build_info::git_commit;
  manifest["build_type"] = build_info::build_type;
  manifest["compiler"] = build_info::compiler;
  manifest["cuda_architectures"] = build_info::cuda_architectures;
  manifest["cpu_model"] = cpu_model();
  manifest["cpu_cores"] = std::to_string(std::thread::hardware_concurrency());
  manifest["numa_nodes"] = numa_nodes();
  manifest["transparent_hugepages"] = transparent_hugepages();
  manifest["gpu_count"] = std::to_string(environment.gpus.count);
  if (environment.gpus.count == 0) {
    manifest["gpu_unavailable_reason"] = environment.gpus.reason;
  } else {
    add_gpu_entries(manifest, environment.gpus.count);
  }
  manifest["nccl_environment"] = describe_nccl_environment(environ);
  manifest["smoke"] = environment.config.smoke ? "true" : "false";
  return manifest;
}

void add_manifest_to_context(const std::map<std::string, std::string>& manifest) {
  for (const auto& [key, value] : manifest)
    benchmark::AddCustomContext("handoff_" + key, value);
}

void add_skipped_to_context(const std::vector<family_plan>& plan) {
  const std::string skipped = describe_skipped(plan);
  benchmark::AddCustomContext("handoff_skipped_families", skipped.empty() ? "none" : skipped);
}

std::map<std::string, std::string> describe_settings(const bench_config& config,
                                                     const run_settings& run) {
  const auto number = [](double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return std::string(text);
  };
  const auto& sampling = config.sampling;
  std::string axes;  // as given: "bytes:4096,1048576 elements:1000"
  for (const auto& [axis, values] : config.axes) {
    if (!axes.empty()) axes.push_back(' ');
    axes.append(axis).push_back(':');
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i > 0) axes.push_back(',');
      axes.append(std::to_string(values[i]));
    }
  }
  return {{"profile", std::string(profile_name(config.profile))},
          {"axes", axes},
          {"max_noise", number(sampling.max_noise)},
          {"min_samples", std::to_string(sampling.min_samples)},
          {"min_time", number(sampling.min_time_seconds)},
          {"timeout", number(sampling.timeout_seconds)},
          {"max_elements", std::to_string(config.max_elements)},
          {"filter", run.filter},
          {"repetitions", std::to_string(run.repetitions)},
          {"passes", std::to_string(config.passes)},
          {"processes", std::to_string(config.processes)},
          {"shuffle_seed", std::to_string(config.shuffle_seed)},
          {"planted_slowdown", config.plant.describe()},
          {"spin", transport::name_of(config.spin)},
          {"spin_us", std::to_string(config.spin_length.count())},
          {"worker_cores", transport::worker_placement()}};
}

void add_settings_to_context(const std::map<std::string, std::string>& settings) {
  for (const auto& [key, value] : settings)
    benchmark::AddCustomContext("setting_" + key, value);
}

void add_clocks_to_context(const std::optional<gpu_clock_reading>& clocks) {
  if (!clocks) return;
  benchmark::AddCustomContext("gpu_sm_clock_mhz_at_start", std::to_string(clocks->sm_mhz));
  benchmark::AddCustomContext("gpu_mem_clock_mhz_at_start", std::to_string(clocks->memory_mhz));
  benchmark::AddCustomContext("gpu_clock_event_reasons_at_start", std::to_string(clocks->reasons));
}

}  // namespace handoff::bench
