// A fresh process through CUDA context creation: the price a script pays for every worker it
// spawns. Timed by the wall clock from the spawn until the worker reports its context exists.

#include <chrono>
#include <string>

#include "../harness/family_registry.hpp"
#include "../harness/measure.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/traffic.hpp"
#include "../workers/context_probe.hpp"
#include "../workers/worker_roles.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/transport/fd_io.hpp"
#include "handoff/transport/process/worker_pool.hpp"
#include "handoff/transport/process_errors.hpp"
#include "handoff/transport/spawned_process.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff::bench::process_start_ceiling {
namespace {

constexpr auto context_deadline = std::chrono::seconds(60);
constexpr auto exit_deadline = std::chrono::milliseconds(10000);

std::string read_line(int fd, transport::deadline_clock::time_point deadline) {
  std::string line;
  std::byte next{};
  while (line.empty() || line.back() != '\n') {
    transport::read_exact(fd, std::span(&next, 1), deadline, "context probe");
    line.push_back(static_cast<char>(next));
  }
  return line;
}

struct probe_outcome {
  double seconds_to_context = 0.0;
  bool reported_correctly = false;
};

probe_outcome spawn_context_probe(const std::string& expected_line) {
  auto report = transport::make_cloexec_pipe();
  const auto start = wall_clock::now();
  auto worker = transport::spawned_process::start(
      "context_probe", worker_command(context_probe_role), {.stdout_fd = report.write_end.get()});
  report.write_end.reset();
  std::string line;
  try {
    line = read_line(report.read_end.get(), transport::deadline_clock::now() + context_deadline);
  } catch (const transport::process_error& failure) {
    transport::throw_peer_failure(worker, failure);
  }
  const double seconds = seconds_since(start);
  const auto status = worker.wait_for(exit_deadline);
  if (!status.success()) {
    throw transport::worker_died("worker context_probe (pid " + std::to_string(worker.pid()) +
                                     ") " + status.describe() + " after it reported",
                                 worker.name(), status);
  }
  return {seconds, line == expected_line};
}

void process_start(benchmark::State& state, const row_context& context, int expected_devices,
                   int spawns) {
  const std::string expected = context_probe_success_line(expected_devices);
  std::uint64_t wrong_reports = 0;
  // The untimed first spawn also pays for reading the program and the driver from disk.
  probe_outcome outcome;
  measure_self_timed_region(
      state, context, [] {},
      [&] {
        outcome = spawn_context_probe(expected);
        return outcome.seconds_to_context;
      },
      [&] {
        if (!outcome.reported_correctly) ++wrong_reports;
      },
      // Each sample is a new process with a new context, cold by nature: a fixed count.
      {.uses_gpu = true, .fixed_samples = spawns});
  state.counters["events"] = 1;
  record_verification(state, reference::verify_count(0, wrong_reports));
}

void register_process_start(const bench_environment& environment) {
  const int devices = environment.gpus.count;
  const int spawns = environment.config.smoke ? 1 : 5;
  register_benchmark(std::string("ceilings/") + ceiling::process_start,
                     [=](benchmark::State& state, const row_context& context) {
                       process_start(state, context, devices, spawns);
                     });
}

}  // namespace

HANDOFF_BENCHMARK_FAMILY("ceilings/process_start", 1, register_process_start);

}  // namespace handoff::bench::process_start_ceiling
