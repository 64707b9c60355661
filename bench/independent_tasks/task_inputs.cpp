#include "task_inputs.hpp"

#include <memory>
#include <utility>

#include "../harness/latest_cache.hpp"

#include "handoff/reference/sum_of_squares.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t datasets_seed = 0x5EED001;

}  // namespace

const task_inputs& task_inputs_for(std::size_t datasets, std::size_t elements) {
  static latest_cache<std::pair<std::size_t, std::size_t>, task_inputs> cache;
  return cache.get({datasets, elements}, [&] {
    auto inputs = std::make_unique<task_inputs>();
    inputs->datasets = datasets;
    inputs->elements = elements;
    inputs->batch =
        patterns::independent_tasks::dataset_batch::uniform(datasets, elements, datasets_seed);
    inputs->views = inputs->batch.views();
    inputs->expected = reference::sums_of_squares(inputs->views);
    return inputs;
  });
}

}  // namespace handoff::bench
