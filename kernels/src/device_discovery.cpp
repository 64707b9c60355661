#include "handoff/device_discovery.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "handoff/cuda_check.hpp"
#include "handoff/fork_guard.hpp"

namespace handoff {
namespace {

std::string format_uuid(const cudaUUID_t& uuid) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(uuid.bytes);
  std::string text = "GPU-";
  char hex[3];
  for (int i = 0; i < 16; ++i) {
    std::snprintf(hex, sizeof(hex), "%02x", bytes[i]);
    text += hex;
    if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
  }
  return text;
}

std::string read_first_line(const std::string& path) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  return line;
}

// sysfs speaks in transfer rates ("32.0 GT/s PCIe"); each PCIe generation doubles the previous.
std::string pcie_generation_from_speed(const std::string& speed) {
  static constexpr std::pair<const char*, const char*> generations[] = {
      {"2.5 GT/s", "gen1"},  {"5.0 GT/s", "gen2"},  {"8.0 GT/s", "gen3"},
      {"16.0 GT/s", "gen4"}, {"32.0 GT/s", "gen5"}, {"64.0 GT/s", "gen6"}};
  for (const auto& [rate, generation] : generations) {
    if (speed.rfind(rate, 0) == 0) return generation;
  }
  return speed.empty() ? "unknown" : speed;
}

std::string pcie_link_of(std::string bus_id) {
  std::transform(bus_id.begin(), bus_id.end(), bus_id.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string device_dir = "/sys/bus/pci/devices/" + bus_id + "/";
  const std::string speed = read_first_line(device_dir + "current_link_speed");
  const std::string width = read_first_line(device_dir + "current_link_width");
  if (speed.empty() && width.empty()) return "unknown";
  return pcie_generation_from_speed(speed) + " x" + (width.empty() ? "?" : width);
}

int device_attribute(cudaDeviceAttr attribute, int ordinal) {
  int value = 0;
  HANDOFF_CUDA_CHECK(cudaDeviceGetAttribute(&value, attribute, ordinal));
  return value;
}

// The NVIDIA kernel module publishes its version here once it is loaded.
bool nvidia_driver_loaded() {
  std::error_code ignored;
  return std::filesystem::exists("/proc/driver/nvidia/version", ignored);
}

}  // namespace

gpu_count_result gpu_count() noexcept {
  // A forked child of a CUDA process has no usable GPU, and must not even ask the driver.
  if (forked_after_cuda_initialisation()) {
    try {
      require_cuda_usable_in_this_process();
    } catch (const cuda_used_after_fork& error) {
      return {0, error.what()};
    } catch (...) {
      return {0, "this process was forked after CUDA initialisation"};
    }
  }
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    // Without the NVIDIA kernel module the runtime reports an "insufficient driver", which would
    // send a user to upgrade a driver the machine does not have.
    if (status == cudaErrorInsufficientDriver && !nvidia_driver_loaded())
      return {0, "no GPU found (no NVIDIA driver is loaded on this machine)"};
    if (status == cudaErrorNoDevice) return {0, "no GPU found (the NVIDIA driver sees none)"};
    return {0, std::string("no usable CUDA device: ") + cudaGetErrorName(status) + " (" +
                   cudaGetErrorString(status) + ")"};
  }
  // The query initialised the driver, which a forked child could not use.
  note_cuda_initialised_in_this_process();
  if (count == 0) return {0, "the CUDA driver reports 0 devices"};
  return {count, {}};
}

gpu_description describe_gpu(int ordinal) {
  cudaDeviceProp properties{};
  HANDOFF_CUDA_CHECK(cudaGetDeviceProperties(&properties, ordinal));
  gpu_description description;
  description.ordinal = ordinal;
  description.name = properties.name;
  description.uuid = format_uuid(properties.uuid);
  char bus_id[32] = {};
  HANDOFF_CUDA_CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof(bus_id), ordinal));
  description.pci_bus_id = bus_id;
  description.compute_capability_major = properties.major;
  description.compute_capability_minor = properties.minor;
  description.multiprocessors = properties.multiProcessorCount;
  description.memory_bytes = properties.totalGlobalMem;
  description.sm_clock_max_khz = device_attribute(cudaDevAttrClockRate, ordinal);
  description.memory_clock_max_khz = device_attribute(cudaDevAttrMemoryClockRate, ordinal);
  description.memory_bus_width_bits = device_attribute(cudaDevAttrGlobalMemoryBusWidth, ordinal);
  description.pcie_link = pcie_link_of(description.pci_bus_id);
  return description;
}

std::vector<std::vector<bool>> peer_access_matrix(int count) {
  std::vector<std::vector<bool>> matrix(count, std::vector<bool>(count, false));
  for (int from = 0; from < count; ++from) {
    for (int to = 0; to < count; ++to) {
      int can_access = 0;
      if (from != to) HANDOFF_CUDA_CHECK(cudaDeviceCanAccessPeer(&can_access, from, to));
      matrix[from][to] = can_access != 0;
    }
  }
  return matrix;
}

}  // namespace handoff
