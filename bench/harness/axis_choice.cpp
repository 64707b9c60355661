#include "axis_choice.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "bench_config.hpp"
#include "family_registry.hpp"
#include "handoff/patterns/elementwise/extended_problem.hpp"

namespace handoff::bench {
namespace {

constexpr std::uint64_t max_affine_order =
    patterns::elementwise::extended_problem::max_affine_order;

std::string flag_text(std::string_view text) {
  return "--handoff-axis=" + std::string(text);
}

// A count, or 2^K; zero, overflow and anything else are nothing.
std::optional<std::uint64_t> parse_count(std::string_view text) {
  std::uint64_t value = 0;
  if (text.starts_with("2^")) {
    unsigned exponent = 0;
    const auto digits = text.substr(2);
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), exponent);
    if (error != std::errc{} || end != digits.data() + digits.size() || exponent > 62) return {};
    return std::uint64_t{1} << exponent;
  }
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size() || value == 0) return {};
  return value;
}

const settable_axis* find_axis(std::string_view name) {
  const auto found = std::ranges::find(settable_axes, name, &settable_axis::name);
  return found == std::end(settable_axes) ? nullptr : found;
}

}  // namespace

std::string settable_axes_help() {
  std::string help;
  for (const auto& axis : settable_axes)
    help += "    " + std::string(axis.name) + ": " + std::string(axis.sizes) + "\n";
  return help;
}

void add_axis_choice(axis_choices& choices, std::string_view text) {
  const auto colon = text.find(':');
  const auto name = text.substr(0, colon);
  if (colon == std::string_view::npos || find_axis(name) == nullptr) {
    throw std::invalid_argument("handoff_bench: " + flag_text(text) +
                                ": name one of the axes that can be set, then its values, as "
                                "--handoff-axis=bytes:4096,2^20; the axes:\n" +
                                settable_axes_help());
  }
  if (choices.contains(name)) {
    throw std::invalid_argument("handoff_bench: " + flag_text(text) + ": the axis " +
                                std::string(name) + " is already given; list all its values once");
  }
  std::vector<std::uint64_t> values;
  for (auto rest = text.substr(colon + 1);;) {
    const auto comma = rest.find(',');
    const auto item = rest.substr(0, comma);
    const auto value = parse_count(item);
    if (!value) {
      throw std::invalid_argument("handoff_bench: " + flag_text(text) + ": '" + std::string(item) +
                                  "' is not a count above 0 (such as 1000000 or 2^20)");
    }
    values.push_back(*value);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  std::ranges::sort(values);
  values.erase(std::ranges::unique(values).begin(), values.end());
  choices.emplace(std::string(name), std::move(values));
}

void check_axis_choices(const axis_choices& choices, std::uint64_t max_elements) {
  const auto refuse = [&](std::string_view axis, std::uint64_t value, const std::string& why) {
    throw std::invalid_argument("handoff_bench: --handoff-axis=" + std::string(axis) + ":" +
                                std::to_string(value) + ": " + why);
  };
  const std::string cap = "--handoff-max-elements=" + std::to_string(max_elements);
  for (const auto& [axis, values] : choices) {
    for (const std::uint64_t value : values) {
      if (axis == "bytes") {
        if (value % sizeof(float) != 0) refuse(axis, value, "not a whole number of floats");
        if (value / sizeof(float) > max_elements) refuse(axis, value, "more floats than " + cap);
      } else if (axis == "n") {
        if (value > max_affine_order) {
          refuse(axis, value,
                 "over affine's cap of " + std::to_string(max_affine_order) +
                     " (cuBLAS's int dimensions)");
        }
        if (value > max_elements / value) refuse(axis, value, "n x n is over " + cap);
      } else if (value > max_elements) {
        refuse(axis, value, "over " + cap);
      }
    }
  }
}

std::vector<std::string> chosen_axes_nobody_read(const bench_config& config,
                                                 const std::vector<family_plan>& plan) {
  std::vector<std::string> unread;
  for (const auto& [axis, values] : config.axes) {
    const bool read = std::ranges::any_of(plan, [&axis](const family_plan& family) {
      return family.runs &&
             std::ranges::find(family.settable_axes, axis) != family.settable_axes.end();
    });
    if (!read) unread.push_back(axis);
  }
  return unread;
}

}  // namespace handoff::bench
