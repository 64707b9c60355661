#include "handoff/patterns/independent_tasks/task_case.hpp"

#include <algorithm>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/sum_of_squares.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

constexpr std::uint64_t datasets_seed = 0x5EED001;

}  // namespace

dataset_batch datasets_for(const task_point& at) {
  return dataset_batch::uniform(at.datasets, at.elements, datasets_seed);
}

task_case::task_case(const task_point& at)
    : batch_(datasets_for(at)),
      views_(batch_.views()),
      expected_(reference::sums_of_squares(views_)),
      sums_(at.datasets) {}

void task_case::deliver(std::span<const float> sums) {
  sums_.assign(sums.begin(), sums.end());
}

void task_case::poison() {
  reference::poison(sums_);
}

reference::verification_result task_case::verify() const {
  return verify(sums_);
}

reference::verification_result task_case::verify(std::span<const float> sums) const {
  return reference::verify_reductions(expected_, sums);
}

std::unique_ptr<task_case> make_task_case(const task_point& at) {
  return std::make_unique<task_case>(at);
}

}  // namespace handoff::patterns::independent_tasks
