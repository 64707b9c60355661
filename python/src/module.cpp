// _handoff_native: what the Python package takes from the suite's C++ rather than writing again:
// the seeded inputs and poison of reference/, its verification policy and oracles, and a run of
// Python rows through handoff_bench's driver (python_run.hpp).

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <span>
#include <tuple>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "python_run.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using floats = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using const_floats = nb::ndarray<const float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using floats_out = nb::ndarray<nb::numpy, float, nb::ndim<1>>;

std::span<float> span_of(floats values) {
  return {values.data(), values.shape(0)};
}

std::span<const float> span_of(const_floats values) {
  return {values.data(), values.shape(0)};
}

// (checked, wrong, description): the description names the first mismatch.
std::tuple<std::size_t, std::size_t, std::string> as_tuple(
    const handoff::reference::verification_result& result) {
  return {result.checked, result.mismatches, result.describe()};
}

// A new float32 array that owns its storage.
floats_out adopt(std::vector<float>&& values) {
  auto* owned = new std::vector<float>(std::move(values));
  nb::capsule owner(
      owned, [](void* pointer) noexcept { delete static_cast<std::vector<float>*>(pointer); });
  return floats_out(owned->data(), {owned->size()}, owner);
}

}  // namespace

NB_MODULE(_handoff_native, m) {
  m.doc() = "handoff_bench's measurement driver, inputs and verification, for handoff (Python)";

  m.def(
      "fill_seeded",
      [](floats values, std::uint64_t seed, std::uint64_t first_index) {
        handoff::reference::fill_seeded_nonzero(span_of(values), seed, first_index);
      },
      "values"_a, "seed"_a, "first_index"_a = 0,
      "values[i] = the seeded, never-zero value of index first_index + i (reference/inputs.hpp)");
  m.def(
      "poison", [](floats values) { handoff::reference::poison(span_of(values)); }, "values"_a,
      "Every byte 0xFF: a NaN, which verification never accepts");
  m.def(
      "verify_elementwise",
      [](const_floats expected, const_floats actual, std::uint32_t max_ulp) {
        return as_tuple(
            handoff::reference::verify_elementwise(span_of(expected), span_of(actual), max_ulp));
      },
      "expected"_a, "actual"_a, "max_ulp"_a = handoff::reference::elementwise_max_ulp);
  m.def(
      "verify_reduction",
      [](double expected, double actual) {
        return as_tuple(handoff::reference::verify_reduction(expected, actual));
      },
      "expected"_a, "actual"_a);
  m.def(
      "expected_vector_add",
      [](std::size_t total, std::uint64_t seed_a, std::uint64_t seed_b) {
        return adopt(handoff::reference::expected_chunked_vector_add(total, {seed_a, seed_b}));
      },
      "total"_a, "seed_a"_a, "seed_b"_a, "The oracle of a + b over seeded inputs, in one piece");

  nb::enum_<handoff::python::run_problem>(m, "RunProblem")
      .value("none", handoff::python::run_problem::none)
      .value("arguments", handoff::python::run_problem::arguments)
      .value("results_file", handoff::python::run_problem::results_file)
      .value("already_ran", handoff::python::run_problem::already_ran);
  m.def(
      "run",
      [](std::vector<std::string> arguments, std::vector<std::pair<std::string, nb::object>> rows,
         const std::string& variants_json,
         const std::vector<std::pair<std::string, std::string>>& skipped) {
        std::vector<handoff::python::skipped_benchmark> skipped_benchmarks;
        for (const auto& [name, reason] : skipped)
          skipped_benchmarks.push_back({name, reason});
        const auto answer = handoff::python::run_python_rows(std::move(arguments), std::move(rows),
                                                             variants_json, skipped_benchmarks);
        return std::make_tuple(answer.status, answer.problem, answer.message);
      },
      "arguments"_a, "rows"_a, "variants_json"_a, "skipped"_a,
      "Measures the rows as handoff_bench measures its own: (exit status, problem, message)");
}
