#include "python_row.hpp"

#include <Python.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cuda_runtime_api.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "handoff/wall_clock.hpp"
#include "harness/interruption.hpp"
#include "harness/measure.hpp"
#include "harness/outcome.hpp"
#include "harness/registration.hpp"
#include "harness/traffic.hpp"

namespace nb = nanobind;

namespace handoff::python {
namespace {

// The Python side has checked that both are whole numbers and wrong <= checked.
reference::verification_result verification_of(const nb::object& answer) {
  const auto [checked, wrong] = nb::cast<std::pair<std::size_t, std::size_t>>(answer);
  reference::verification_result result;
  result.checked = checked;
  result.mismatches = wrong;
  return result;
}

// After a failure the row's workers still go; the failure, not a second one met while ending
// them, is what the row reports.
void close_after_failure(const nb::object& row) noexcept {
  try {
    row.attr("close")();
  } catch (nb::python_error& error) {
    error.discard_as_unraisable("handoff: closing a failed row");
  } catch (...) {
  }
}

void measure_row(benchmark::State& state, const bench::row_context& context,
                 const nb::object& row) {
  const auto started = wall_clock::now();
  try {
    row.attr("setup")();
    state.counters["setup_seconds"] = seconds_since(started);
    const auto poison = [&] { row.attr("poison")(); };
    const auto run = [&] { row.attr("run")(); };
    // A row whose work is on a CUDA stream is timed there, as the C++ GPU rows are: the events
    // see the GPU's time, not the interpreter's wait for it.
    if (const nb::object stream = row.attr("stream")(); !stream.is_none()) {
      const auto handle = nb::cast<std::uintptr_t>(stream);
      bench::measure_gpu_region(state, context, reinterpret_cast<cudaStream_t>(handle), poison,
                                run);
    } else {
      bench::measure_wall_region(state, context, poison, run);
    }
    const auto verify_started = wall_clock::now();
    bench::record_verification(state, verification_of(row.attr("verify")()));
    state.counters["verify_seconds"] = seconds_since(verify_started);
    const auto [bytes, items] = nb::cast<std::pair<double, double>>(row.attr("traffic")());
    if (bytes > 0.0 || items > 0.0) bench::set_traffic(state, bytes, items);
    // Priced when the results are written, against the ceilings the run reuses, as a C++ row's.
    for (const auto& [counter, amount] :
         nb::cast<std::vector<std::pair<std::string, double>>>(row.attr("floor_counters")())) {
      state.counters[counter] = amount;
    }
  } catch (const nb::python_error& error) {
    // Ctrl-C reaches a Python run as KeyboardInterrupt: the run stops as handoff_bench's does on
    // SIGINT (the rows after it skipped, the results file marked incomplete), not as a failure.
    if (error.matches(PyExc_KeyboardInterrupt)) bench::simulate_interrupt(SIGINT);
    close_after_failure(row);
    throw;
  } catch (...) {
    close_after_failure(row);
    throw;
  }
  row.attr("close")();
}

}  // namespace

void register_python_row(const std::string& name, nb::object row) {
  bench::register_benchmark(
      name, [row = std::move(row)](benchmark::State& state, const bench::row_context& context) {
        measure_row(state, context, row);
      });
}

}  // namespace handoff::python
