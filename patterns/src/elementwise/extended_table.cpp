// Seed 002's table: one line per variant, and the case every variant of a point shares.

#include <cstdint>

#include "handoff/patterns/elementwise/extended_table.hpp"
#include "handoff/reference/extended_elementwise.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::elementwise {
namespace {

constexpr std::uint64_t seed_first = 0x5EED002A;
constexpr std::uint64_t seed_second = 0x5EED002B;
constexpr std::uint64_t seed_bias = 0x5EED002C;

constexpr std::size_t map_max_elements = std::size_t{1} << 14;
constexpr std::size_t map_max_order = 256;

constexpr runs_on on_cpu{.cpu = true};
constexpr runs_on on_device{.device = true};

bool is_affine(const extended_point& at) {
  return at.workload == extended_workload::affine;
}

// No ceiling bounds cpu_chunked or cpu_blas (the one-thread memcpy ceiling measures no arithmetic
// and no thread team; the suite has no compute ceiling), so they have no floor. Every row reports
// its stages: the in-process CPU rows all kernel, cpu_map its coordinator's and workers' stages,
// the GPU rows h2d, kernel and d2h from events between them.
const variant_row<extended_point, extended_case> rows[] = {
    {.name = "cpu_map",
     .description = "one message per element (per column for the GEMM) to a process pool",
     .recipe = true,
     .targets = on_cpu,
     .cold = cold_kind::fresh_setup,
     .setup = set_up_extended_cpu_map,
     .floor = extended_cpu_map_floor,
     .measured_at = within_map_cap},
    {.name = "cpu_chunked",
     .description = "a contiguous chunk per CPU thread",
     .targets = on_cpu,
     .setup = set_up_extended_cpu_chunked},
#ifdef HANDOFF_HAVE_OPENBLAS
    {.name = "cpu_blas",
     .description = "OpenBLAS (the GEMM)",
     .targets = on_cpu,
     .setup = set_up_extended_cpu_blas,
     .measured_at = is_affine},
#endif
    {.name = "gpu_transfers",
     .description = "pageable copies to the device and back around the kernel",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .setup = set_up_extended_gpu_transfers,
     .floor = extended_transfers_floor},
    {.name = "gpu_resident",
     .description = "the kernel, or cuBLAS for the GEMM, the data already on the device",
     .targets = on_device,
     .clock = clock_kind::cuda_events,
     .setup = set_up_extended_gpu_resident,
     .floor = extended_resident_floor},
};

}  // namespace

extended_problem extended_inputs::problem() const {
  switch (at.workload) {
    case extended_workload::square:
      return extended_problem::square(first);
    case extended_workload::neg_b_over_a:
      return extended_problem::neg_b_over_a(first, second);
    case extended_workload::affine:
      break;
  }
  return extended_problem::affine(at.size, first, second, bias);
}

std::shared_ptr<const extended_inputs> seeded_extended_inputs(const extended_point& at) {
  // Only the latest point is remembered, and only while a case or a session still holds it.
  static std::weak_ptr<const extended_inputs> latest;
  if (auto held = latest.lock(); held && held->at == at) return held;
  auto inputs = std::make_shared<extended_inputs>();
  inputs->at = at;
  const std::size_t first_values = is_affine(at) ? at.size * at.size : at.size;
  inputs->first.resize(first_values);
  reference::fill_seeded_nonzero(inputs->first, seed_first);
  if (at.workload != extended_workload::square) {
    inputs->second.resize(first_values);
    reference::fill_seeded_nonzero(inputs->second, seed_second);
  }
  if (is_affine(at)) {
    inputs->bias.resize(at.size);
    reference::fill_seeded_nonzero(inputs->bias, seed_bias);
  }
  latest = inputs;
  return inputs;
}

extended_case::extended_case(const extended_point& at)
    : inputs_(seeded_extended_inputs(at)),
      problem_(inputs_->problem()),
      out_(problem_.output_count()) {
  switch (at.workload) {
    case extended_workload::square:
      expected_.resize(at.size);
      reference::square(inputs_->first, expected_);
      break;
    case extended_workload::neg_b_over_a:
      expected_.resize(at.size);
      reference::neg_b_over_a(inputs_->first, inputs_->second, expected_);
      break;
    case extended_workload::affine:
      oracle_ =
          reference::affine_reference(at.size, inputs_->first, inputs_->second, inputs_->bias);
      break;
  }
}

void extended_case::poison() {
  reference::poison(out_);
}

reference::verification_result extended_case::verify_result(std::span<const float> actual) const {
  if (oracle_) return reference::verify_affine(*oracle_, actual);
  return reference::verify_elementwise(expected_, actual);
}

std::unique_ptr<extended_case> make_extended_case(const extended_point& at) {
  return std::make_unique<extended_case>(at);
}

double extended_elements(const extended_point& at) {
  const auto size = static_cast<double>(at.size);
  return is_affine(at) ? size * size : size;
}

double extended_bytes(const extended_point& at) {
  const double element = sizeof(float);
  const double out = extended_elements(at);
  switch (at.workload) {
    case extended_workload::square:
      return element * 2.0 * out;
    case extended_workload::neg_b_over_a:
      return element * 3.0 * out;
    case extended_workload::affine:
      break;
  }
  return element * (3.0 * out + static_cast<double>(at.size));  // W, X, b in; Y out
}

bool within_map_cap(const extended_point& at) {
  return is_affine(at) ? at.size <= map_max_order : at.size <= map_max_elements;
}

variant_table<extended_point, extended_case> extended_variants() {
  return rows;
}

}  // namespace handoff::patterns::elementwise
