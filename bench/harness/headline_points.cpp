#include "headline_points.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "headline_points_json.hpp"

namespace handoff::bench {
namespace {

// ordered_json keeps the file's order of a point's axes, which is the order the table prints.
using ordered_json = nlohmann::ordered_json;

axis_values text_map(const ordered_json& value, const std::string& where) {
  if (!value.is_object()) throw std::invalid_argument(where + ": must map axis names to values");
  axis_values axes;
  for (const auto& [axis, text] : value.items()) {
    if (!text.is_string()) throw std::invalid_argument(where + "." + axis + ": must be a string");
    axes.emplace_back(axis, text.get<std::string>());
  }
  return axes;
}

headline_point point_from(const ordered_json& entry, const std::string& where) {
  if (!entry.is_object()) throw std::invalid_argument(where + ": must be an object");
  for (const auto& [key, value] : entry.items()) {
    if (key != "pattern" && key != "point" && key != "recipe" && key != "cpu_axes" &&
        key != "not_compared") {
      throw std::invalid_argument(where + ": unknown key " + key);
    }
  }
  headline_point point;
  if (!entry.contains("pattern") || !entry["pattern"].is_string())
    throw std::invalid_argument(where + ": pattern must be a string");
  point.pattern = entry["pattern"].get<std::string>();
  point.point = text_map(entry.value("point", ordered_json()), where + ".point");
  const auto recipe = entry.value("recipe", ordered_json());
  if (recipe.is_string()) {
    point.recipe = recipe.get<std::string>();
  } else if (!recipe.is_null()) {
    throw std::invalid_argument(where + ": recipe must be a string or null");
  }
  point.cpu_axes = text_map(entry.value("cpu_axes", ordered_json::object()), where + ".cpu_axes");
  const auto not_compared = entry.value("not_compared", ordered_json::array());
  if (!not_compared.is_array()) throw std::invalid_argument(where + ": not_compared is a list");
  for (const auto& variant : not_compared) {
    if (!variant.is_string()) throw std::invalid_argument(where + ": not_compared is of strings");
    point.not_compared.push_back(variant.get<std::string>());
  }
  return point;
}

}  // namespace

std::vector<headline_point> parse_headline_points(std::string_view json_text) {
  const std::string where = "headline_points.json";
  const auto document = ordered_json::parse(json_text, nullptr, false);
  if (document.is_discarded() || !document.is_object())
    throw std::invalid_argument(where + ": not a JSON object");
  if (document.value("largest", "") != largest_axis_value)
    throw std::invalid_argument(where + ": largest must be " + std::string(largest_axis_value));
  const auto points = document.value("points", ordered_json());
  if (!points.is_array() || points.empty()) throw std::invalid_argument(where + ": no points");
  std::vector<headline_point> parsed;
  for (std::size_t i = 0; i < points.size(); ++i)
    parsed.push_back(point_from(points[i], where + ": points[" + std::to_string(i) + "]"));
  return parsed;
}

const std::vector<headline_point>& headline_points() {
  // Parsed once, on first use; the file is checked by the tests, so a bad one fails them, not a
  // run's last line.
  static const std::vector<headline_point> points = parse_headline_points(headline_points_json);
  return points;
}

}  // namespace handoff::bench
