#include "task_inputs.hpp"

#include <memory>

#include "handoff/reference/sum_of_squares.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t datasets_seed = 0x5EED001;

}  // namespace

const task_inputs& task_inputs_for(std::size_t datasets, std::size_t elements) {
  static std::unique_ptr<task_inputs> cached;
  if (!cached || cached->datasets != datasets || cached->elements != elements) {
    cached.reset();
    auto inputs = std::make_unique<task_inputs>();
    inputs->datasets = datasets;
    inputs->elements = elements;
    inputs->batch =
        patterns::independent_tasks::dataset_batch::uniform(datasets, elements, datasets_seed);
    inputs->views = inputs->batch.views();
    inputs->expected = reference::sums_of_squares(inputs->views);
    cached = std::move(inputs);
  }
  return *cached;
}

}  // namespace handoff::bench
