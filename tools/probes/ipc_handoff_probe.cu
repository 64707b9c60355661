// Per-step timestamps of one device-to-device hand-off between two processes, the way
// tensor_transfer's cuda_ipc and vmm_fd rows hand off, in every ordering the CUDA API offers.
// It is an investigation tool, not a benchmark: it prints medians of each step so that the cost
// of a row can be split into its causes. Build and run on a GPU machine:
//   nvcc -O2 -std=c++20 -arch=native -o /tmp/ipc_probe tools/probes/ipc_handoff_probe.cu -lcuda
//   /tmp/ipc_probe [bytes]
#include <cuda_runtime_api.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "probe_check.hpp"

namespace {

double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool spin_reads = false;

void read_all(int fd, void* data, size_t size) {
  auto* bytes = static_cast<char*>(data);
  while (size > 0) {
    if (spin_reads) {
      pollfd request{fd, POLLIN, 0};
      while (::poll(&request, 1, 0) == 0) {
      }
    }
    const ssize_t got = ::read(fd, bytes, size);
    if (got <= 0) std::exit(3);
    bytes += got;
    size -= static_cast<size_t>(got);
  }
}

void write_all(int fd, const void* data, size_t size) {
  if (::write(fd, data, size) != static_cast<ssize_t>(size)) std::exit(4);
}

struct handles {
  cudaIpcMemHandle_t memory;
  cudaIpcEventHandle_t event;
};

// What the producer does before it sends its message, and how the consumer orders its copy.
enum class ordering : int {
  none,                  // no event: the data was written long before
  stream_wait_event,     // producer records the IPC event; consumer cudaStreamWaitEvent
  consumer_event_sync,   // producer records; consumer cudaEventSynchronize on the host
  consumer_event_query,  // producer records; consumer spins on cudaEventQuery
  producer_sync,         // producer records and synchronises the event; consumer waits on it
};
const char* names[] = {"none", "stream_wait_event", "consumer_event_sync", "consumer_event_query",
                       "producer_sync"};

struct message {
  int mode;
  int write_first;  // the producer writes the tensor (memset) before ordering
};

constexpr int rounds = 300;

void consumer(int socket, size_t bytes) {
  CHECK(cudaSetDevice(0));
  handles shared{};
  read_all(socket, &shared, sizeof(shared));
  void* source = nullptr;
  CHECK(cudaIpcOpenMemHandle(&source, shared.memory, cudaIpcMemLazyEnablePeerAccess));
  cudaEvent_t event = nullptr;
  CHECK(cudaIpcOpenEventHandle(&event, shared.event));
  void* destination = nullptr;
  CHECK(cudaMalloc(&destination, bytes));
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<double> order_us, copy_us, sync_us;
  while (true) {
    message got{};
    read_all(socket, &got, sizeof(got));
    if (got.mode < 0) break;
    const auto mode = static_cast<ordering>(got.mode);
    const double t0 = now_us();
    switch (mode) {
      case ordering::stream_wait_event:
      case ordering::producer_sync:
        CHECK(cudaStreamWaitEvent(stream, event, 0));
        break;
      case ordering::consumer_event_sync:
        CHECK(cudaEventSynchronize(event));
        break;
      case ordering::consumer_event_query:
        while (cudaEventQuery(event) == cudaErrorNotReady) {
        }
        break;
      case ordering::none:
        break;
    }
    const double t1 = now_us();
    CHECK(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice, stream));
    const double t2 = now_us();
    CHECK(cudaStreamSynchronize(stream));
    const double t3 = now_us();
    order_us.push_back(t1 - t0);
    copy_us.push_back(t2 - t1);
    sync_us.push_back(t3 - t2);
    const double times[3] = {t1 - t0, t2 - t1, t3 - t2};
    write_all(socket, times, sizeof(times));
  }
  CHECK(cudaIpcCloseMemHandle(source));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

void producer(int socket, size_t bytes) {
  CHECK(cudaSetDevice(0));
  void* tensor = nullptr;
  CHECK(cudaMalloc(&tensor, bytes));
  CHECK(cudaMemset(tensor, 1, bytes));
  cudaEvent_t event = nullptr;
  CHECK(cudaEventCreateWithFlags(&event, cudaEventInterprocess | cudaEventDisableTiming));
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  handles shared{};
  CHECK(cudaIpcGetMemHandle(&shared.memory, tensor));
  CHECK(cudaIpcGetEventHandle(&shared.event, event));
  CHECK(cudaDeviceSynchronize());
  write_all(socket, &shared, sizeof(shared));
  std::printf("%-22s %-6s %9s %9s %9s %9s %9s\n", "ordering", "write", "round_us", "prod_us",
              "order_us", "copy_us", "sync_us");
  for (int write_first = 0; write_first < 2; ++write_first) {
    for (int mode = 0; mode < 5; ++mode) {
      std::vector<double> round_us, producer_us, order_us, copy_us, sync_us;
      for (int round = 0; round < rounds; ++round) {
        const double t0 = now_us();
        if (write_first) CHECK(cudaMemsetAsync(tensor, round & 0x7f, bytes, stream));
        const auto how = static_cast<ordering>(mode);
        if (how != ordering::none) CHECK(cudaEventRecord(event, stream));
        if (how == ordering::producer_sync) CHECK(cudaEventSynchronize(event));
        if (how == ordering::none && write_first) CHECK(cudaStreamSynchronize(stream));
        const double t1 = now_us();
        const message sent{mode, write_first};
        write_all(socket, &sent, sizeof(sent));
        double times[3];
        read_all(socket, times, sizeof(times));
        const double t2 = now_us();
        if (round < 20) continue;  // warm-up
        round_us.push_back(t2 - t0);
        producer_us.push_back(t1 - t0);
        order_us.push_back(times[0]);
        copy_us.push_back(times[1]);
        sync_us.push_back(times[2]);
      }
      std::printf("%-22s %-6s %9.1f %9.1f %9.1f %9.1f %9.1f\n", names[mode],
                  write_first ? "yes" : "no", median(round_us), median(producer_us),
                  median(order_us), median(copy_us), median(sync_us));
    }
  }
  const message stop{-1, 0};
  write_all(socket, &stop, sizeof(stop));
}

}  // namespace

int main(int argc, char** argv) {
  const size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : (size_t{4} << 20);
  spin_reads = argc > 2 && std::string(argv[2]) == "spin";
  std::printf("bytes %zu, %s reads\n", bytes, spin_reads ? "spinning" : "blocking");
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0) return 1;
  // Forked before either side touches CUDA.
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(ends[0]);
    consumer(ends[1], bytes);
    return 0;
  }
  ::close(ends[1]);
  producer(ends[0], bytes);
  int status = 0;
  ::waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
