#include <span>
#include <utility>

#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::patterns::multi_gpu {

multi_gpu_case::multi_gpu_case(std::shared_ptr<partitioned_setup> setup, run_scope scope)
    : setup_(std::move(setup)), scope_(scope) {}

void multi_gpu_case::poison() {
  if (scope_ != run_scope::gather) setup_->devices->poison_outputs();
  if (scope_ == run_scope::from_host) setup_->devices->poison_inputs();
}

// This process's parts only (an MPI rank holds its own), each at its global offset.
reference::verification_result multi_gpu_case::verify() const {
  reference::verification_result total;
  const auto local = setup_->devices->assembled_outputs();
  const std::span<const float> expected(setup_->expected);
  const std::span<const float> actual(local);
  for (const auto& slot : setup_->devices->slots()) {
    for (const auto& part : slot.parts) {
      total.add_slice(
          reference::verify_elementwise(expected.subspan(part.offset, part.count),
                                        actual.subspan(part.offset, part.count), setup_->max_ulp),
          part.offset);
    }
  }
  return total;
}

std::unique_ptr<multi_gpu_case> make_multi_gpu_case(const multi_gpu_point& at) {
  return std::make_unique<multi_gpu_case>(shared_setup_for(at.config), at.scope);
}

}  // namespace handoff::patterns::multi_gpu
