// PCIe and device-memory copy ceilings: host to device and back, pinned and pageable, both
// directions at once, and device to device. Each copy is timed with events and then verified byte
// for byte against the seeded source.

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "ceiling_sizes.hpp"
#include "handoff/copy_kernel.hpp"
#include "handoff/device_buffer.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/stream.hpp"
#include "huge_page_host_buffer.hpp"

namespace handoff::bench::copy_ceilings {
namespace {

constexpr std::uint64_t pattern_seed = 0xC0FFEE;

reference::host_vector<float> seeded_floats(std::size_t bytes) {
  reference::host_vector<float> values(bytes / sizeof(float));
  reference::fill_seeded_nonzero(values, pattern_seed);
  return values;
}

std::span<const std::byte> as_bytes_of(std::span<const float> values) {
  return std::as_bytes(values);
}

reference::host_vector<float> download(const device_buffer<float>& buffer) {
  reference::host_vector<float> host(buffer.size());
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(host.data(), buffer.data(), buffer.size_bytes(), cudaMemcpyDeviceToHost));
  return host;
}

void poison_device(const device_buffer<float>& buffer, cudaStream_t stream) {
  HANDOFF_CUDA_CHECK(
      cudaMemsetAsync(buffer.data(), reference::poison_byte, buffer.size_bytes(), stream));
}

void finish_copy_ceiling(benchmark::State& state, std::size_t traffic_bytes,
                         std::span<const float> expected, std::span<const float> actual) {
  set_traffic(state, static_cast<double>(traffic_bytes), static_cast<double>(expected.size()));
  record_verification(state, reference::verify_bytes(as_bytes_of(expected), as_bytes_of(actual)));
}

// Host memory of either kind, behind one span: the two kinds differ only in who allocates it.
struct host_memory {
  explicit host_memory(std::size_t count, bool pinned)
      : pinned_(pinned ? count : 0), pageable_(pinned ? 0 : count * sizeof(float)) {}
  std::span<float> span() { return pinned_.size() ? pinned_.span() : pageable_.as<float>(); }

 private:
  pinned_buffer<float> pinned_;
  huge_page_host_buffer pageable_;
};

void host_to_device(benchmark::State& state, const row_context& context, std::size_t bytes,
                    bool pinned) {
  const auto pattern = seeded_floats(bytes);
  host_memory source(pattern.size(), pinned);
  std::ranges::copy(pattern, source.span().begin());
  const device_buffer<float> destination(pattern.size());
  const handoff::stream stream;
  measure_gpu_region(
      state, context, stream.get(), [&] { poison_device(destination, stream.get()); },
      [&] {
        HANDOFF_CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.span().data(), bytes,
                                           cudaMemcpyHostToDevice, stream.get()));
      });
  finish_copy_ceiling(state, bytes, pattern, download(destination));
}

void device_to_host(benchmark::State& state, const row_context& context, std::size_t bytes,
                    bool pinned) {
  const auto pattern = seeded_floats(bytes);
  const device_buffer<float> source(pattern.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(source.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  host_memory destination(pattern.size(), pinned);
  const handoff::stream stream;
  measure_gpu_region(
      state, context, stream.get(), [&] { reference::poison(destination.span()); },
      [&] {
        HANDOFF_CUDA_CHECK(cudaMemcpyAsync(destination.span().data(), source.data(), bytes,
                                           cudaMemcpyDeviceToHost, stream.get()));
      });
  finish_copy_ceiling(state, bytes, pattern, destination.span());
}

// Two streams, one per direction, started together by one event and joined by another.
void both_directions(benchmark::State& state, const row_context& context, std::size_t bytes) {
  const auto pattern = seeded_floats(bytes);
  pinned_buffer<float> upload_source(pattern.size());
  pinned_buffer<float> download_destination(pattern.size());
  std::ranges::copy(pattern, upload_source.data());
  const device_buffer<float> upload_destination(pattern.size());
  const device_buffer<float> download_source(pattern.size());
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(download_source.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  const handoff::stream upload_stream;
  const handoff::stream download_stream;
  const event fork(cudaEventDisableTiming);
  const event join(cudaEventDisableTiming);
  measure_gpu_region(
      state, context, upload_stream.get(),
      [&] {
        poison_device(upload_destination, upload_stream.get());
        reference::poison(download_destination.span());
        upload_stream.synchronize();
      },
      [&] {
        fork.record(upload_stream.get());
        HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(download_stream.get(), fork.get()));
        HANDOFF_CUDA_CHECK(cudaMemcpyAsync(upload_destination.data(), upload_source.data(), bytes,
                                           cudaMemcpyHostToDevice, upload_stream.get()));
        HANDOFF_CUDA_CHECK(cudaMemcpyAsync(download_destination.data(), download_source.data(),
                                           bytes, cudaMemcpyDeviceToHost, download_stream.get()));
        join.record(download_stream.get());
        HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(upload_stream.get(), join.get()));
      });
  // The upload's bytes, then the download's, each against the pattern where it lies: two
  // concatenated copies of a gibibyte cost more than the row's samples.
  auto verdict =
      reference::verify_bytes(as_bytes_of(pattern), as_bytes_of(download(upload_destination)));
  verdict.add_slice(
      reference::verify_bytes(as_bytes_of(pattern), as_bytes_of(download_destination.span())),
      bytes);
  set_traffic(state, static_cast<double>(2 * bytes), static_cast<double>(2 * pattern.size()));
  record_verification(state, verdict);
}

// Both directions at once again, with the host side a ring of pinned slots that the chunks take in
// turn, as the chunked hand-offs (shm_pinned's ring of 8 MiB slots) move data: the two whole
// 256 MiB copies together ran slower than 16 MiB ones, and shm_pinned's 8 MiB chunks beat the
// whole copies' rate at 256 MiB. A floor must not be slower than the way a variant moves its
// bytes, so this way is measured too, and each size keeps the faster. Chunks are shm_pinned's: a
// quarter of the transfer, at most one 8 MiB slot. (figures: docs/design/measured-along-the-way.md,
// "The bidirectional ceiling's ring of pinned slots")
constexpr std::size_t ring_slot_bytes = 8 * mebibyte;
constexpr std::size_t ring_slot_count = 8;
constexpr std::size_t ring_least_chunks = 4;

void both_directions_through_ring(benchmark::State& state, const row_context& context,
                                  std::size_t bytes) {
  const std::size_t chunk_bytes = std::min(ring_slot_bytes, bytes / ring_least_chunks);
  if (chunk_bytes == 0 || chunk_bytes % sizeof(float) != 0 || bytes % chunk_bytes != 0) {
    throw std::invalid_argument("ceilings: the ring copy needs a size of whole float chunks, not " +
                                std::to_string(bytes) + " bytes");
  }
  const std::size_t chunks = bytes / chunk_bytes;
  const std::size_t slots = std::min(chunks, ring_slot_count);
  const std::size_t chunk_values = chunk_bytes / sizeof(float);
  const auto pattern = seeded_floats(bytes);
  // Slot s of the upload ring holds the pattern's chunk s; chunk i goes up from slot i % slots.
  pinned_buffer<float> upload_ring(slots * chunk_values);
  std::copy_n(pattern.begin(), upload_ring.size(), upload_ring.data());
  pinned_buffer<float> download_ring(slots * chunk_values);
  const device_buffer<float> upload_destination(pattern.size());
  const device_buffer<float> download_source(pattern.size());
  HANDOFF_CUDA_CHECK(
      cudaMemcpy(download_source.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  const handoff::stream upload_stream;
  const handoff::stream download_stream;
  const event fork(cudaEventDisableTiming);
  const event join(cudaEventDisableTiming);
  measure_gpu_region(
      state, context, upload_stream.get(),
      [&] {
        poison_device(upload_destination, upload_stream.get());
        reference::poison(download_ring.span());
        upload_stream.synchronize();
      },
      [&] {
        fork.record(upload_stream.get());
        HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(download_stream.get(), fork.get()));
        for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
          const std::size_t slot_offset = (chunk % slots) * chunk_values;
          const std::size_t device_offset = chunk * chunk_values;
          HANDOFF_CUDA_CHECK(cudaMemcpyAsync(upload_destination.data() + device_offset,
                                             upload_ring.data() + slot_offset, chunk_bytes,
                                             cudaMemcpyHostToDevice, upload_stream.get()));
          HANDOFF_CUDA_CHECK(cudaMemcpyAsync(download_ring.data() + slot_offset,
                                             download_source.data() + device_offset, chunk_bytes,
                                             cudaMemcpyDeviceToHost, download_stream.get()));
        }
        join.record(download_stream.get());
        HANDOFF_CUDA_CHECK(cudaStreamWaitEvent(upload_stream.get(), join.get()));
      });
  std::vector<float> uploaded;
  uploaded.reserve(pattern.size());
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    const auto from = pattern.begin() + static_cast<std::ptrdiff_t>((chunk % slots) * chunk_values);
    uploaded.insert(uploaded.end(), from, from + static_cast<std::ptrdiff_t>(chunk_values));
  }
  // Each download slot ends holding the last chunk that went through it: so only the last
  // `slots` chunks of the download are checked, while every uploaded chunk is. A download that
  // skipped earlier chunks would overstate this ceiling, which makes floors stricter, never looser.
  std::vector<float> downloaded;
  downloaded.reserve(download_ring.size());
  for (std::size_t slot = 0; slot < slots; ++slot) {
    const std::size_t last = slot + (chunks - 1 - slot) / slots * slots;
    const auto from = pattern.begin() + static_cast<std::ptrdiff_t>(last * chunk_values);
    downloaded.insert(downloaded.end(), from, from + static_cast<std::ptrdiff_t>(chunk_values));
  }
  auto verdict =
      reference::verify_bytes(as_bytes_of(uploaded), as_bytes_of(download(upload_destination)));
  verdict.add_slice(
      reference::verify_bytes(as_bytes_of(downloaded), as_bytes_of(download_ring.span())), bytes);
  set_traffic(state, static_cast<double>(2 * bytes), static_cast<double>(2 * pattern.size()));
  record_verification(state, verdict);
}

enum class device_copy_method { memcpy, kernel };

// Counts bytes read plus bytes written, as a memory-bandwidth figure must.
void device_to_device(benchmark::State& state, const row_context& context, std::size_t bytes,
                      device_copy_method method) {
  const auto pattern = seeded_floats(bytes);
  const device_buffer<float> source(pattern.size());
  const device_buffer<float> destination(pattern.size());
  HANDOFF_CUDA_CHECK(cudaMemcpy(source.data(), pattern.data(), bytes, cudaMemcpyHostToDevice));
  const handoff::stream stream;
  measure_gpu_region(
      state, context, stream.get(), [&] { poison_device(destination, stream.get()); },
      [&] {
        if (method == device_copy_method::kernel) {
          launch_copy_kernel(destination.data(), source.data(), bytes, stream.get());
        } else {
          HANDOFF_CUDA_CHECK(cudaMemcpyAsync(destination.data(), source.data(), bytes,
                                             cudaMemcpyDeviceToDevice, stream.get()));
        }
      });
  finish_copy_ceiling(state, 2 * bytes, pattern, download(destination));
}

// Each ceiling is the best rate over a sweep of sizes: the pageable path in particular runs at
// different speeds at different sizes, and a floor must never be slower than what the path can do.
void register_copy_ceilings(const bench_environment& environment) {
  const auto add = [&](const char* name, std::size_t bytes, benchmark_body body) {
    register_benchmark(benchmark_name("ceilings", name, {{"bytes", std::to_string(bytes)}}),
                       std::move(body));
  };
  for (const std::size_t bytes : pcie_sweep_bytes(environment)) {
    add(ceiling::h2d_pinned, bytes, [=](auto& state, const row_context& context) {
      host_to_device(state, context, bytes, true);
    });
    add(ceiling::d2h_pinned, bytes, [=](auto& state, const row_context& context) {
      device_to_host(state, context, bytes, true);
    });
    add(ceiling::h2d_pageable, bytes, [=](auto& state, const row_context& context) {
      host_to_device(state, context, bytes, false);
    });
    add(ceiling::d2h_pageable, bytes, [=](auto& state, const row_context& context) {
      device_to_host(state, context, bytes, false);
    });
    for (const auto& [through_ring, method_name] :
         {std::pair{false, "whole"}, std::pair{true, "ring"}}) {
      register_benchmark(
          benchmark_name("ceilings", ceiling::bidirectional_pinned,
                         {{"method", method_name}, {"bytes", std::to_string(bytes)}}),
          [=](auto& state, const row_context& context) {
            if (through_ring) {
              both_directions_through_ring(state, context, bytes);
            } else {
              both_directions(state, context, bytes);
            }
          });
    }
  }
  for (const std::size_t bytes : device_copy_sweep_bytes(environment)) {
    for (const auto& [method, method_name] : {std::pair{device_copy_method::memcpy, "memcpy"},
                                              {device_copy_method::kernel, "kernel"}}) {
      register_benchmark(
          benchmark_name("ceilings", ceiling::device_copy,
                         {{"method", method_name}, {"bytes", std::to_string(bytes)}}),
          [=](auto& state, const row_context& context) {
            device_to_device(state, context, bytes, method);
          });
    }
  }
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/copies", 1, register_copy_ceilings);

}  // namespace handoff::bench::copy_ceilings
