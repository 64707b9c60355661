// Peer-to-peer copies from GPU 0 to GPU 1, with peer access off (the driver stages through the
// host) and on (direct, over NVLink or PCIe). Registered only on machines with 2 or more GPUs; the
// peer-access-on figure also needs a topology that allows it.

#include <cuda_runtime_api.h>

#include <cstdio>
#include <exception>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "ceiling_sizes.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/stream.hpp"

namespace handoff::bench {
namespace {

constexpr int source_device = 0;
constexpr int destination_device = 1;

// Peer access is a property of the context, so each benchmark sets it explicitly both ways, and
// turns it off again on every way out, for whatever runs next.
void set_peer_access(bool enabled) {
  for (const auto& [from, to] : {std::pair{source_device, destination_device},
                                 std::pair{destination_device, source_device}}) {
    HANDOFF_CUDA_CHECK(cudaSetDevice(from));
    const cudaError_t status =
        enabled ? cudaDeviceEnablePeerAccess(to, 0) : cudaDeviceDisablePeerAccess(to);
    const bool already_so =
        status == cudaErrorPeerAccessAlreadyEnabled || status == cudaErrorPeerAccessNotEnabled;
    if (already_so) (void)cudaGetLastError();
    if (!already_so) HANDOFF_CUDA_CHECK(status);
  }
  HANDOFF_CUDA_CHECK(cudaSetDevice(source_device));
}

class scoped_peer_access {
 public:
  explicit scoped_peer_access(bool enabled) { set_peer_access(enabled); }
  scoped_peer_access(const scoped_peer_access&) = delete;
  scoped_peer_access& operator=(const scoped_peer_access&) = delete;
  ~scoped_peer_access() {
    try {
      set_peer_access(false);
    } catch (const std::exception& error) {
      std::fprintf(stderr, "handoff_bench: could not turn peer access off: %s\n", error.what());
    }
  }
};

// The destination lives on the other device, so it is poisoned there and waited for there.
void poison_on_destination_device(const device_buffer<float>& destination) {
  HANDOFF_CUDA_CHECK(cudaSetDevice(destination_device));
  HANDOFF_CUDA_CHECK(
      cudaMemset(destination.data(), reference::poison_byte, destination.size_bytes()));
  HANDOFF_CUDA_CHECK(cudaDeviceSynchronize());
  HANDOFF_CUDA_CHECK(cudaSetDevice(source_device));
}

void peer_copy(benchmark::State& state, std::size_t bytes, bool peer_access) {
  std::vector<float> pattern(bytes / sizeof(float));
  reference::fill_seeded_nonzero(pattern, 0x9E3);
  HANDOFF_CUDA_CHECK(cudaSetDevice(destination_device));
  const device_buffer<float> destination(pattern.size());
  HANDOFF_CUDA_CHECK(cudaSetDevice(source_device));
  const device_buffer<float> source(pattern.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(source.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  const scoped_peer_access access(peer_access);
  const handoff::stream stream;
  measure_gpu_region(
      state, stream.get(), [&] { poison_on_destination_device(destination); },
      [&] {
        HANDOFF_CUDA_CHECK(cudaMemcpyPeerAsync(destination.data(), destination_device,
                                               source.data(), source_device, bytes, stream.get()));
      });
  std::vector<float> received(pattern.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(received.data(), destination.data(), bytes, cudaMemcpyDefault));
  set_traffic(state, static_cast<double>(bytes), static_cast<double>(pattern.size()));
  record_verification(state, reference::verify_bytes(std::as_bytes(std::span(pattern)),
                                                     std::as_bytes(std::span(received))));
}

void register_peer_off(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  register_benchmark(std::string("ceilings/") + ceiling::peer_access_off,
                     [=](benchmark::State& state) { peer_copy(state, bytes, false); });
}

void register_peer_on(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  register_benchmark(std::string("ceilings/") + ceiling::peer_access_on,
                     [=](benchmark::State& state) { peer_copy(state, bytes, true); });
}

std::string peer_access_unavailable(const bench_environment&) {
  const auto matrix = peer_access_matrix(2);
  if (matrix[source_device][destination_device] && matrix[destination_device][source_device]) {
    return {};
  }
  return "GPUs 0 and 1 cannot access each other's memory (cudaDeviceCanAccessPeer is 0)";
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/p2p_peer_access_off", 2, register_peer_off);
HANDOFF_BENCHMARK_FAMILY("ceilings/p2p_peer_access_on", 2, register_peer_on,
                         peer_access_unavailable);

}  // namespace handoff::bench
