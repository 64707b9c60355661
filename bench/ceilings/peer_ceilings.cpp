// Peer-to-peer copies from GPU 0 to GPU 1, with peer access off (the driver stages through the
// host) and on (direct, over NVLink or PCIe), and with peer access on in both directions at once
// (the bytes of both directions over the time, as pcie_bidirectional_pinned counts them): an
// all-gather sends and receives at once on every link, so this is the figure that says whether a
// collective is bound by the link or by itself. Registered only on machines with 2 or more GPUs;
// the peer-access-on figures also need a topology that allows them.

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

namespace handoff::bench::peer_ceilings {
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

void peer_copy(benchmark::State& state, const row_context& context, std::size_t bytes,
               bool peer_access) {
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
      state, context, stream.get(), [&] { poison_on_destination_device(destination); },
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

// Each device copies its own buffer into the other's, each on a stream of its own device, started
// together by one event and joined by another on GPU 0's stream.
void peer_copy_both_ways(benchmark::State& state, const row_context& context, std::size_t bytes) {
  std::vector<float> pattern(bytes / sizeof(float));
  reference::fill_seeded_nonzero(pattern, 0xB1D);
  const scoped_peer_access access(true);
  HANDOFF_CUDA_CHECK(cudaSetDevice(destination_device));
  const device_buffer<float> source_on_1(pattern.size());
  const device_buffer<float> destination_on_1(pattern.size());
  const handoff::stream stream_on_1;
  const event join(cudaEventDisableTiming);
  HANDOFF_CUDA_CHECK(cudaMemcpy(source_on_1.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  HANDOFF_CUDA_CHECK(cudaSetDevice(source_device));
  const device_buffer<float> source_on_0(pattern.size());
  const device_buffer<float> destination_on_0(pattern.size());
  const handoff::stream stream_on_0;
  const event fork(cudaEventDisableTiming);
  HANDOFF_CUDA_CHECK(cudaMemcpy(source_on_0.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  measure_gpu_region(
      state, context, stream_on_0.get(),
      [&] {
        poison_on_destination_device(destination_on_1);
        HANDOFF_CUDA_CHECK(cudaMemset(destination_on_0.data(), reference::poison_byte,
                                      destination_on_0.size_bytes()));
        HANDOFF_CUDA_CHECK(cudaDeviceSynchronize());
      },
      [&] {
        fork.record(stream_on_0.get());
        HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(stream_on_1.get(), fork.get()));
        HANDOFF_CUDA_CHECK(cudaMemcpyPeerAsync(destination_on_1.data(), destination_device,
                                               source_on_0.data(), source_device, bytes,
                                               stream_on_0.get()));
        HANDOFF_CUDA_CHECK(cudaMemcpyPeerAsync(destination_on_0.data(), source_device,
                                               source_on_1.data(), destination_device, bytes,
                                               stream_on_1.get()));
        join.record(stream_on_1.get());
        HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(stream_on_0.get(), join.get()));
      });
  std::vector<float> received(2 * pattern.size());
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(received.data(), destination_on_1.data(), bytes, cudaMemcpyDefault));
  HANDOFF_CUDA_CHECK(cudaMemcpy(received.data() + pattern.size(), destination_on_0.data(), bytes,
                                cudaMemcpyDefault));
  auto expected = pattern;
  expected.insert(expected.end(), pattern.begin(), pattern.end());
  set_traffic(state, 2.0 * static_cast<double>(bytes), 2.0 * static_cast<double>(pattern.size()));
  record_verification(state, reference::verify_bytes(std::as_bytes(std::span(expected)),
                                                     std::as_bytes(std::span(received))));
}

void register_peer_off(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  register_benchmark(std::string("ceilings/") + ceiling::peer_access_off,
                     [=](benchmark::State& state, const row_context& context) {
                       peer_copy(state, context, bytes, false);
                     });
}

void register_peer_on(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  register_benchmark(std::string("ceilings/") + ceiling::peer_access_on,
                     [=](benchmark::State& state, const row_context& context) {
                       peer_copy(state, context, bytes, true);
                     });
}

void register_peer_both_ways(const bench_environment& environment) {
  const std::size_t bytes = ceiling_transfer_bytes(environment.config);
  register_benchmark(std::string("ceilings/") + ceiling::peer_bidirectional,
                     [=](benchmark::State& state, const row_context& context) {
                       peer_copy_both_ways(state, context, bytes);
                     });
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
HANDOFF_BENCHMARK_FAMILY("ceilings/p2p_peer_bidirectional", 2, register_peer_both_ways,
                         peer_access_unavailable);

}  // namespace handoff::bench::peer_ceilings
