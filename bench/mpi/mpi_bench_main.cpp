// handoff_bench_mpi: the multi_gpu pattern with one rank per GPU, as users who outgrow one process
// run it. mpirun starts the ranks; rank 0 makes the NCCL clique's unique id and MPI broadcasts it;
// each rank drives the GPU of its local rank, uploads its own parts of the same even plan, runs
// the same user kernel, and NCCL gathers the whole array onto every rank: the multi_gpu table's
// case and session (patterns/multi_gpu), over this rank's device only. Rows (mpi_rows.hpp: the
// table's rows that run across ranks):
//   multi_gpu_mpi/<variant>/workload:<w>/gpus:<ranks>/partitioner:even/elements:<e>/
//       scope:<gather|resident|from_host>
// with the axes and counters of handoff_bench's multi_gpu rows, so the two modes compare by name.
// A row this machine cannot run (the window rows without symmetric windows, NCCL 2.27 and later)
// is left out, with the reason.
//
// Every rank runs the same benchmarks for the same fixed number of iterations (an adaptive count
// could differ between ranks, and a rank that stops early leaves the others waiting in a
// collective). A run's time is the slowest rank's, agreed by MPI; every rank verifies its own
// copy of the result against the CPU reference, and the mismatches are summed over the ranks.
// Only rank 0 reports. A rank that throws aborts every rank, so a failure never hangs the job.

#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "../harness/bench_config.hpp"
#include "../harness/driver.hpp"
#include "../harness/manifest.hpp"
#include "../harness/outcome.hpp"
#include "../harness/registration.hpp"
#include "../harness/results_file.hpp"
#include "../harness/traffic.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/figures.hpp"
#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#include "handoff/patterns/multi_gpu/nccl_tuning_log.hpp"
#include "handoff/scoped_device.hpp"
#include "mpi_rows.hpp"
#include "mpi_session.hpp"

namespace handoff::bench::mpi {
namespace {

using namespace patterns::multi_gpu;

struct rank_context {
  const mpi_session* session = nullptr;
  int ordinal = 0;
  int iterations = 20;
};

rank_context context;

// This rank's part of the latest configuration, kept while consecutive rows share it.
std::shared_ptr<partitioned_setup> current_setup;

std::shared_ptr<partitioned_setup> setup_for(const partitioned_config& config) {
  if (current_setup && current_setup->config == config) return current_setup;
  current_setup.reset();
  const std::vector<int> ranks = {context.session->rank()};
  const std::vector<int> ordinals = {context.ordinal};
  current_setup = make_rank_setup(config, ranks, ordinals);
  return current_setup;
}

// The table's variant an MPI row runs, for the error of a wait that gives up.
std::string_view variant_name(gather_kind kind, nccl_result_memory memory) {
  if (kind == gather_kind::none) return "kernel_only";
  if (kind != gather_kind::nccl) return "multi_gpu";
  return memory == nccl_result_memory::symmetric_window ? "nccl_allgather_window"
                                                        : "nccl_allgather";
}

// The table's session for the row's gather, over this rank's devices; NCCL's communicator spans
// the ranks (rank 0 makes the clique's id, MPI broadcasts it), where handoff_bench's spans the
// devices of one process.
std::unique_ptr<gather_session> session_for(const std::shared_ptr<partitioned_setup>& setup,
                                            gather_kind kind, nccl_result_memory memory,
                                            run_scope scope) {
  std::unique_ptr<device_gather> gather;
  if (kind == gather_kind::nccl) {
    const mpi_session& session = *context.session;
    ncclUniqueId clique{};
    if (session.rank() == 0) HANDOFF_NCCL_CHECK(nccl().get_unique_id(&clique));
    clique = session.broadcast_from_rank_0(clique);
    gather = make_nccl_gather(
        *setup->devices,
        nccl_communicators::for_rank(clique, session.ranks(), session.rank(), context.ordinal),
        memory);
  }
  return std::make_unique<gather_session>(setup, scope, kind, std::move(gather),
                                          variant_name(kind, memory));
}

// A figure of the gather holds for the job when it holds on every rank (nccl_windows_registered:
// 1 only when every rank's copy was registered): the lowest rank's value. NCCL logs its paths on
// rank 0 alone (nccl_tuning_log.hpp), so those figures are rank 0's and take no collective: their
// count differs between ranks.
std::vector<patterns::named_figure> lowest_over_ranks(std::vector<patterns::named_figure> figures) {
  for (auto& figure : figures) {
    if (patterns::multi_gpu::is_nccl_path_figure(figure.name)) continue;
    figure.value = -context.session->max_over_ranks(-figure.value);
  }
  return figures;
}

// The table's case and session, with a loop of its own: every rank runs the same fixed count, and
// each run's time is the slowest rank's.
void timed_row(benchmark::State& state, const partitioned_config& config, gather_kind kind,
               nccl_result_memory memory, run_scope scope) {
  const mpi_session& session = *context.session;
  const scoped_device on_device(context.ordinal);
  const auto setup = setup_for(config);
  multi_gpu_case work(setup, scope);
  const auto variant = session_for(setup, kind, memory, scope);
  // One untimed run first, as the driver does: NCCL connects its peers at the first collective of
  // a communicator, which would otherwise land in the first of few timed runs.
  session.barrier();
  (void)variant->run(work);
  run_totals totals;
  for (auto _ : state) {
    variant->poison(work);
    session.barrier();
    const double seconds = session.max_over_ranks(variant->run(work).seconds);
    state.SetIterationTime(seconds);
    totals.add(seconds, setup->devices->busy_seconds());
  }
  auto verdict = variant->verify(work);
  verdict.checked = session.sum_over_ranks(verdict.checked);
  verdict.mismatches = session.sum_over_ranks(verdict.mismatches);
  record_verification(state, verdict);
  set_traffic(state, sizeof(float) * static_cast<double>(config.elements),
              static_cast<double>(config.elements));
  state.counters["gpus"] = config.gpus;
  set_figures(state, throughput_figures(*setup, totals));
  set_figures(state, gather_figures(setup->plan, kind, scope, totals));
  set_figures(state, lowest_over_ranks(variant->figures_of_gather()));
}

void register_rows(const bench_config& config, int ranks) {
  const auto made = rows_across_ranks(config, ranks, [ranks](const multi_gpu_row& row) {
    return patterns::unavailable_reason_of(row, ranks);
  });
  if (context.session->rank() == 0) {
    for (const auto& [variant, reason] : made.left_out)
      std::cerr << "handoff_bench_mpi: no " << variant << " rows: " << reason << "\n";
  }
  for (const auto& row : made.rows) {
    benchmark::RegisterBenchmark(row.name.c_str(),
                                 [row](benchmark::State& state) {
                                   try {
                                     timed_row(state, row.config, row.form.gather, row.form.memory,
                                               row.scope);
                                   } catch (const std::exception& error) {
                                     context.session->abort_all(error.what(), 3);
                                   }
                                 })
        ->UseManualTime()
        ->Iterations(context.iterations)
        ->Unit(benchmark::kMillisecond);
  }
}

// --handoff-iterations=N, taken out of argv before Google Benchmark sees it.
int take_iterations_flag(int& argc, char** argv, bool smoke_default) {
  int iterations = smoke_default ? 2 : 20;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument.starts_with("--handoff-iterations=")) {
      iterations =
          parse_count("--handoff-iterations", std::string_view(argument).substr(21), 1'000'000);
      continue;
    }
    argv[kept++] = argv[i];
  }
  argc = kept;
  return iterations;
}

// The --benchmark_out path, or empty.
std::string results_path_of(int argc, char** argv) {
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    if (argument.starts_with("--benchmark_out=")) path = argument.substr(16);
  }
  return path;
}

// Google Benchmark writes this program's results file, and says little when it cannot: the run
// fails unless the file is there, regular, and written since the run began.
std::string results_file_problem(const std::string& path, std::filesystem::file_time_type started) {
  std::error_code error;
  const auto status = std::filesystem::symlink_status(path, error);
  if (error || !std::filesystem::is_regular_file(status)) return path + " was not written";
  if (std::filesystem::file_size(path, error) == 0 || error) return path + " is empty";
  if (std::filesystem::last_write_time(path, error) < started || error)
    return path + " still holds an earlier run's results";
  return {};
}

// Only rank 0 writes the results file; the others would overwrite it.
void drop_output_flags_off_rank_0(int& argc, char** argv, int rank) {
  if (rank == 0) return;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).starts_with("--benchmark_out")) continue;
    argv[kept++] = argv[i];
  }
  argc = kept;
}

class silent_reporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>&) override {}
};

int run(const mpi_session& session, int argc, char** argv) {
  bool smoke = false;
  for (int i = 1; i < argc; ++i)
    smoke = smoke || std::string(argv[i]) == "--handoff-smoke";
  context.iterations = take_iterations_flag(argc, argv, smoke);
  const bench_config config = parse_handoff_flags(argc, argv);
  const std::string results_path = session.rank() == 0 ? results_path_of(argc, argv) : "";
  if (!results_path.empty()) check_results_path("--benchmark_out", results_path);
  const auto started = std::filesystem::file_time_type::clock::now();
  drop_output_flags_off_rank_0(argc, argv, session.rank());
  const bool unit_chosen = time_unit_chosen(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (!unit_chosen) benchmark::SetDefaultTimeUnit(benchmark::kMicrosecond);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;

  const auto gpus = gpu_count();
  if (session.local_rank() >= gpus.count) {
    session.abort_all(
        ("local rank " + std::to_string(session.local_rank()) +
         " has no GPU of its own: this host shows " + std::to_string(gpus.count) +
         (gpus.reason.empty() ? "" : " (" + gpus.reason + ")") + "; start at most one rank per GPU")
            .c_str(),
        2);
  }
  context.ordinal = session.local_rank();
  (void)nccl();  // a missing NCCL fails here, on every rank, before any collective
  if (session.rank() == 0) {
    add_manifest_to_context(collect_manifest({config, gpus}));
    benchmark::AddCustomContext("mpi_ranks", std::to_string(session.ranks()));
    benchmark::AddCustomContext("nccl_version", nccl_version());
  }
  register_rows(config, session.ranks());
  if (session.rank() == 0) {
    benchmark::ConsoleReporter reporter(isatty(STDOUT_FILENO)
                                            ? benchmark::ConsoleReporter::OO_Color
                                            : benchmark::ConsoleReporter::OO_None);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  } else {
    silent_reporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
  }
  current_setup.reset();
  benchmark::Shutdown();
  const auto failures =
      session.sum_over_ranks(static_cast<std::uint64_t>(failed_benchmark_count()));
  if (failures > 0 && session.rank() == 0) {
    std::cerr << "handoff_bench_mpi: " << failures << " benchmark(s) failed verification\n";
  }
  if (!results_path.empty()) {
    if (const auto problem = results_file_problem(results_path, started); !problem.empty()) {
      std::cerr << "handoff_bench_mpi: the results were not saved: " << problem << "\n";
      return 1;
    }
  }
  return failures > 0 ? 1 : 0;
}

}  // namespace
}  // namespace handoff::bench::mpi

int main(int argc, char** argv) {
  handoff::bench::mpi::mpi_session session(argc, argv);
  handoff::bench::mpi::context.session = &session;
  try {
    return handoff::bench::mpi::run(session, argc, argv);
  } catch (const std::exception& error) {
    session.abort_all(error.what(), 2);
  }
}
