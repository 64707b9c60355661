#include "name_parts.hpp"

#include <algorithm>
#include <array>
#include <ranges>

namespace handoff::bench {
namespace {

// Google Benchmark's own suffixes, which say how a row was timed rather than what it measured.
constexpr std::array<std::string_view, 3> timing_suffixes = {"manual_time", "real_time",
                                                             "process_time"};

std::vector<std::string_view> split_at_slashes(std::string_view text) {
  std::vector<std::string_view> parts;
  for (std::size_t begin = 0;;) {
    const std::size_t slash = text.find('/', begin);
    parts.push_back(text.substr(begin, slash == std::string_view::npos ? slash : slash - begin));
    if (slash == std::string_view::npos) return parts;
    begin = slash + 1;
  }
}

}  // namespace

std::optional<std::string> name_parts::axis(std::string_view name) const {
  const auto found = std::ranges::find(axes | std::views::reverse, name,
                                       &std::pair<std::string, std::string>::first);
  if (found == (axes | std::views::reverse).end()) return std::nullopt;
  return found->second;
}

name_parts parse_name_parts(std::string_view run_name) {
  auto parts = split_at_slashes(run_name);
  while (!parts.empty() &&
         std::ranges::find(timing_suffixes, parts.back()) != timing_suffixes.end())
    parts.pop_back();
  name_parts name;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) name.key += '/';
    name.key += parts[i];
  }
  name.pattern = parts.empty() ? std::string(run_name) : std::string(parts.front());
  if (parts.size() > 1 && parts[1].find(':') == std::string_view::npos) name.variant = parts[1];
  for (std::size_t i = name.variant.empty() ? 1 : 2; i < parts.size(); ++i) {
    const std::size_t colon = parts[i].find(':');
    if (colon == std::string_view::npos) {
      name.axes.emplace_back(parts[i], "");
    } else {
      name.axes.emplace_back(parts[i].substr(0, colon), parts[i].substr(colon + 1));
    }
  }
  return name;
}

}  // namespace handoff::bench
