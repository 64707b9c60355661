#include "handoff/patterns/pool_prep/cpu_serial.hpp"

#include <chrono>

#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::pool_prep {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

}  // namespace

stage_times cpu_serial::run(const batch& work) {
  check_batch(work);
  out_.resize(work.total_elements);
  a_.resize(work.max_chunk_elements());
  b_.resize(work.max_chunk_elements());
  stage_times stages;
  for (std::size_t index = 0; index < work.chunks; ++index) {
    const auto extent = work.chunk(index);
    const std::span a = std::span(a_).first(extent.count);
    const std::span b = std::span(b_).first(extent.count);
    auto start = clock_type::now();
    reference::prepare_vector_add_chunk(work.seeds, extent.offset, a, b);
    stages.prep += seconds_since(start);
    start = clock_type::now();
    reference::add_chunk_on_this_thread(a, b, std::span(out_).subspan(extent.offset, extent.count));
    stages.kernel += seconds_since(start);
  }
  return stages;
}

void cpu_serial::poison_output() {
  reference::poison(out_);
}

}  // namespace handoff::patterns::pool_prep
