// Per-step timestamps of postproc_split/overlapped's copy back: 10^7 floats (40 MB) from device
// memory into page-locked host memory, cut into pieces, each piece's landing marked by an event,
// with the pieces spread over one or more streams, and optionally read by four summing threads as
// they land, as the pool's workers do; the warm-up rounds check the landed data and the readers'
// sums. It is an investigation tool, not a benchmark: it prints the median of each configuration
// so that the row's copy-back time can be split into its causes.
// Build and run on a GPU machine:
//   nvcc -O3 -std=c++20 -arch=native -o /tmp/copy_back_probe tools/probes/copy_back_pieces_probe.cu
//   /tmp/copy_back_probe
#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <thread>
#include <vector>

#include "probe_check.hpp"

namespace {

constexpr std::size_t elements = 10'000'000;
constexpr int rounds = 30;
constexpr int warm_up_rounds = 3;
constexpr unsigned char pattern_byte = 0x3f;  // every float of c is 0x3f3f3f3f, about 0.747

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

__attribute__((target_clones("avx2", "default"))) double sum(std::span<const float> values) {
  constexpr std::size_t lanes = 16;
  double partial[lanes] = {};
  const std::size_t whole = values.size() - values.size() % lanes;
  for (std::size_t index = 0; index < whole; index += lanes)
    for (std::size_t lane = 0; lane < lanes; ++lane)
      partial[lane] += values[index + lane];
  for (std::size_t index = whole; index < values.size(); ++index)
    partial[0] += values[index];
  double total = 0;
  for (double lane_sum : partial)
    total += lane_sum;
  return total;
}

// Every sum here adds copies of one float into doubles, so it is exact and must equal this.
double expected_sum() {
  float value = 0;
  std::memset(&value, pattern_byte, sizeof(value));
  return static_cast<double>(value) * static_cast<double>(elements);
}

void check_sum(double actual, const char* whose) {
  if (actual != expected_sum()) {
    std::fprintf(stderr, "%s summed %.17g, not %.17g\n", whose, actual, expected_sum());
    std::exit(3);
  }
}

void check_landed(const float* host, const char* what) {
  check_sum(sum({host, elements}), what);
}

struct result {
  double batch_us, copies_us, last_landing_us;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// pieces: how many equal pieces; streams: over how many streams, round robin; readers: summing
// threads (0: none), thread t taking pieces t, t + readers, ...
result run(const float* device, float* host, std::size_t pieces, std::size_t stream_count,
           std::size_t readers) {
  std::vector<cudaStream_t> streams(stream_count);
  for (auto& stream : streams)
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<cudaEvent_t> landed(pieces);
  for (auto& event : landed)
    CHECK(cudaEventCreate(&event));
  cudaEvent_t start_event;
  CHECK(cudaEventCreate(&start_event));
  std::vector<double> batch, copies, last;
  const std::size_t piece = (elements + pieces - 1) / pieces;
  for (int round = 0; round < rounds + warm_up_rounds; ++round) {
    // The warm-up rounds check what landed (the timed ones leave the host memory as the row does).
    const bool checked = round < warm_up_rounds;
    if (checked) std::memset(host, 0, elements * sizeof(float));
    std::atomic<int> go{0};
    std::vector<std::thread> threads;
    std::atomic<double> checksum{0};
    for (std::size_t reader = 0; reader < readers; ++reader) {
      threads.emplace_back([&, reader] {
        while (go.load() == 0) {
        }
        double local = 0;
        for (std::size_t index = reader; index < pieces; index += readers) {
          while (cudaEventQuery(landed[index]) == cudaErrorNotReady) {
          }
          const std::size_t offset = index * piece;
          local += sum({host + offset, std::min(piece, elements - offset)});
        }
        checksum.fetch_add(local);
      });
    }
    const double t0 = now_us();
    CHECK(cudaEventRecord(start_event, streams[0]));
    for (std::size_t s = 1; s < stream_count; ++s)
      CHECK(cudaStreamWaitEvent(streams[s], start_event));
    for (std::size_t index = 0; index < pieces; ++index) {
      const std::size_t offset = index * piece;
      const std::size_t count = std::min(piece, elements - offset);
      cudaStream_t stream = streams[index % stream_count];
      CHECK(cudaMemcpyAsync(host + offset, device + offset, count * sizeof(float),
                            cudaMemcpyDeviceToHost, stream));
      CHECK(cudaEventRecord(landed[index], stream));
    }
    go.store(1);
    for (auto& thread : threads)
      thread.join();
    for (auto& stream : streams)
      CHECK(cudaStreamSynchronize(stream));
    const double t1 = now_us();
    if (checked) {
      check_landed(host, "the copies");
      if (readers > 0) check_sum(checksum.load(), "the readers");
    }
    float last_ms = 0, span_ms = 0;
    for (std::size_t index = 0; index < pieces; ++index) {
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, start_event, landed[index]));
      span_ms = std::max(span_ms, ms);
      if (index + 1 == pieces) last_ms = ms;
    }
    if (!checked) {
      batch.push_back(t1 - t0);
      copies.push_back(span_ms * 1e3);
      last.push_back(last_ms * 1e3);
    }
  }
  for (auto& event : landed)
    CHECK(cudaEventDestroy(event));
  CHECK(cudaEventDestroy(start_event));
  for (auto& stream : streams)
    CHECK(cudaStreamDestroy(stream));
  return {median(batch), median(copies), median(last)};
}

}  // namespace

int main() {
  CHECK(cudaSetDevice(0));
  float* device = nullptr;
  CHECK(cudaMalloc(&device, elements * sizeof(float)));
  CHECK(cudaMemset(device, pattern_byte, elements * sizeof(float)));
  // Registered anonymous shared memory, as the pattern's segment.
  void* mapped = mmap(nullptr, elements * sizeof(float), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return 3;
  CHECK(cudaHostRegister(mapped, elements * sizeof(float), cudaHostRegisterDefault));
  auto* host = static_cast<float*>(mapped);
  {
    const double t0 = now_us();
    volatile double sink = sum({host, elements});
    (void)sink;
    std::printf("one thread sums 40 MB (first touch): %.1f us\n", now_us() - t0);
    double best = 1e30;
    for (int round = 0; round < 15; ++round) {
      const double t = now_us();
      sink = sum({host, 1'000'000});
      best = std::min(best, now_us() - t);
    }
    std::printf("one thread sums a cached 4 MB chunk: %.1f us (x10 = %.1f us)\n", best, best * 10);
  }
  std::printf("%7s %7s %7s %10s %10s %10s %9s\n", "pieces", "streams", "readers", "batch_us",
              "copies_us", "last_us", "GB/s");
  for (std::size_t readers : {0, 4}) {
    for (std::size_t pieces : {1, 5, 10, 20, 40}) {
      for (std::size_t streams : {1, 2, 4}) {
        if (pieces == 1 && streams > 1) continue;
        const auto r = run(device, host, pieces, streams, readers);
        std::printf("%7zu %7zu %7zu %10.1f %10.1f %10.1f %9.1f\n", pieces, streams, readers,
                    r.batch_us, r.copies_us, r.last_landing_us,
                    elements * sizeof(float) / r.copies_us / 1e3);
      }
    }
  }
  CHECK(cudaHostUnregister(mapped));
  munmap(mapped, elements * sizeof(float));
  CHECK(cudaFree(device));
}
