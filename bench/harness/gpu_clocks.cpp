#include "gpu_clocks.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>

#include "handoff/transport/shared_library.hpp"

namespace handoff::bench {
namespace {

constexpr const char* nvml_library = "libnvidia-ml.so.1";
constexpr int nvml_success = 0;
constexpr int nvml_clock_sm = 1;
constexpr int nvml_clock_memory = 2;
constexpr unsigned long long reason_gpu_idle = 0x1;
constexpr unsigned long long reason_applications_clocks = 0x2;
constexpr unsigned long long reason_display_clock = 0x100;
// Software power cap, hardware slowdown, software and hardware thermal slowdown, power brake.
constexpr unsigned long long lowering_reasons = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

using nvml_device = void*;

struct nvml_functions {
  int (*init)() = nullptr;
  int (*by_pci_bus_id)(const char*, nvml_device*) = nullptr;
  int (*clock)(nvml_device, int, unsigned*) = nullptr;
  int (*max_clock)(nvml_device, int, unsigned*) = nullptr;
  int (*reasons)(nvml_device, unsigned long long*) = nullptr;
  bool ready = false;
};

// Loaded once; a machine without NVML gets an empty table, and every read is empty.
const nvml_functions& nvml() {
  static const nvml_functions functions = [] {
    nvml_functions loaded;
    try {
      void* library = transport::open_shared_library(nvml_library, "");
      transport::resolve_symbol(library, nvml_library, "nvmlInit_v2", loaded.init);
      transport::resolve_symbol(library, nvml_library, "nvmlDeviceGetHandleByPciBusId_v2",
                                loaded.by_pci_bus_id);
      transport::resolve_symbol(library, nvml_library, "nvmlDeviceGetClockInfo", loaded.clock);
      transport::resolve_symbol(library, nvml_library, "nvmlDeviceGetMaxClockInfo",
                                loaded.max_clock);
      try {
        transport::resolve_symbol(library, nvml_library, "nvmlDeviceGetCurrentClocksEventReasons",
                                  loaded.reasons);
      } catch (const transport::library_load_error&) {
        // Drivers before 535 name it after throttling.
        transport::resolve_symbol(library, nvml_library,
                                  "nvmlDeviceGetCurrentClocksThrottleReasons", loaded.reasons);
      }
      loaded.ready = loaded.init() == nvml_success;
    } catch (const transport::library_load_error&) {
      loaded.ready = false;
    }
    return loaded;
  }();
  return functions;
}

}  // namespace

bool gpu_clock_reading::lowered() const noexcept {
  return (reasons & lowering_reasons) != 0 || (sm_max_mhz > 0 && sm_mhz * 10 < sm_max_mhz * 9);
}

bool gpu_clock_reading::idle() const noexcept {
  return sm_max_mhz > 0 && sm_mhz * 2 < sm_max_mhz;
}

std::optional<gpu_clock_reading> read_gpu_clocks() {
  const auto& functions = nvml();
  if (!functions.ready) return std::nullopt;
  int device = 0;
  std::array<char, 32> bus_id{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetPCIBusId(bus_id.data(), static_cast<int>(bus_id.size()), device) !=
          cudaSuccess) {
    cudaGetLastError();  // a machine without a GPU leaves no sticky error behind
    return std::nullopt;
  }
  nvml_device handle = nullptr;
  gpu_clock_reading reading;
  unsigned long long reasons = 0;
  if (functions.by_pci_bus_id(bus_id.data(), &handle) != nvml_success ||
      functions.clock(handle, nvml_clock_sm, &reading.sm_mhz) != nvml_success ||
      functions.clock(handle, nvml_clock_memory, &reading.memory_mhz) != nvml_success ||
      functions.max_clock(handle, nvml_clock_sm, &reading.sm_max_mhz) != nvml_success ||
      functions.reasons(handle, &reasons) != nvml_success) {
    return std::nullopt;
  }
  reading.reasons =
      reasons & ~(reason_gpu_idle | reason_applications_clocks | reason_display_clock);
  return reading;
}

void gpu_clock_watch::add(const std::optional<gpu_clock_reading>& reading) {
  if (!reading) return;
  if (!seen) {
    seen = reading;
    return;
  }
  seen->sm_mhz = std::min(seen->sm_mhz, reading->sm_mhz);
  seen->memory_mhz = std::min(seen->memory_mhz, reading->memory_mhz);
  seen->sm_max_mhz = std::max(seen->sm_max_mhz, reading->sm_max_mhz);
  seen->reasons |= reading->reasons;
}

}  // namespace handoff::bench
