#include "protocol.hpp"

#include <charconv>
#include <stdexcept>

#include "declared_variants.hpp"

namespace handoff::patterns::queued_worker {
namespace {

std::string item_context(std::size_t index) {
  return "queued_worker: item " + std::to_string(index) + ": ";
}

}  // namespace

void validate_setup(const worker_setup& setup) {
  if (setup.max_item_elements == 0) {
    throw std::invalid_argument("queued_worker: max_item_elements must be at least 1");
  }
  if (setup.max_item_elements > (std::size_t{1} << 32)) {
    throw std::invalid_argument("queued_worker: max_item_elements is over 2^32 floats");
  }
  const auto& behaviour = row_of(setup.variant).specifics;
  if (setup.slot_count < behaviour.least_slots) {
    throw std::invalid_argument("queued_worker " + setup.variant +
                                ": slot_count must be at least " +
                                std::to_string(behaviour.least_slots));
  }
  if (!behaviour.recipe_fixes_optional &&
      (!setup.fixes.task_done_for_sentinel || !setup.fixes.drain_results_before_join)) {
    throw std::invalid_argument(
        "queued_worker: recipe_fixes concern the seed variant's queues; the slot variants have no "
        "task_done and always drain their results before joining");
  }
}

void validate_batch(const worker_setup& setup, std::span<const work_item> items,
                    std::span<const std::span<float>> outputs) {
  if (items.size() != outputs.size()) {
    throw std::invalid_argument("queued_worker: " + std::to_string(items.size()) + " items but " +
                                std::to_string(outputs.size()) + " outputs");
  }
  for (std::size_t index = 0; index < items.size(); ++index) {
    const auto& item = items[index];
    if (item.a.size() != item.b.size()) {
      throw std::invalid_argument(item_context(index) + "a has " + std::to_string(item.a.size()) +
                                  " elements but b has " + std::to_string(item.b.size()));
    }
    if (outputs[index].size() != item.a.size()) {
      throw std::invalid_argument(item_context(index) + "a and b have " +
                                  std::to_string(item.a.size()) + " elements but its output has " +
                                  std::to_string(outputs[index].size()));
    }
    if (item.a.size() > setup.max_item_elements) {
      throw std::invalid_argument(item_context(index) + std::to_string(item.a.size()) +
                                  " elements, over the session's max_item_elements of " +
                                  std::to_string(setup.max_item_elements));
    }
  }
}

namespace protocol {

std::size_t pipeline_depth(std::string_view variant, std::size_t slot_count) {
  return row_of(variant).specifics.pipeline_depth(slot_count);
}

worker_arguments worker_arguments::from(const worker_setup& setup) {
  return {.variant = setup.variant,
          .target = setup.target,
          .max_item_elements = setup.max_item_elements,
          .depth = pipeline_depth(setup.variant, setup.slot_count),
          .task_done_for_sentinel = setup.fixes.task_done_for_sentinel,
          .pause_after_items = setup.pause_after_items,
          .patience = setup.patience};
}

std::vector<std::string> worker_arguments::encode() const {
  return {variant,
          std::string(compute_target_name(target)),
          std::to_string(max_item_elements),
          std::to_string(depth),
          task_done_for_sentinel ? "1" : "0",
          std::to_string(pause_after_items),
          std::to_string(patience.count())};
}

worker_arguments worker_arguments::decode(std::span<const std::string> arguments) {
  if (arguments.size() != 7) {
    throw std::invalid_argument("queued_worker gpu worker: expected 7 arguments, got " +
                                std::to_string(arguments.size()));
  }
  // from_chars, not stoull: stoull reads "-1" as the largest value and throws its own
  // out_of_range, neither of which names the argument.
  const auto number = [&](std::size_t index) -> std::size_t {
    const std::string& text = arguments[index];
    std::size_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc{} || end != text.data() + text.size()) {
      throw std::invalid_argument("queued_worker gpu worker: argument " + std::to_string(index) +
                                  " is not a count: '" + text + "'");
    }
    return value;
  };
  worker_arguments decoded;
  decoded.variant = row_of(arguments[0]).name;
  decoded.target = parse_compute_target(arguments[1]);
  decoded.max_item_elements = number(2);
  decoded.depth = number(3);
  decoded.task_done_for_sentinel = number(4) != 0;
  decoded.pause_after_items = number(5);
  decoded.patience = std::chrono::milliseconds(number(6));
  if (decoded.max_item_elements == 0 || decoded.depth == 0) {
    throw std::invalid_argument("queued_worker gpu worker: elements and depth must be positive");
  }
  return decoded;
}

}  // namespace protocol
}  // namespace handoff::patterns::queued_worker
