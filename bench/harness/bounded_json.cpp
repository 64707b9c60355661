#include "bounded_json.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

namespace handoff::bench {

std::string read_bounded_file(const std::string& path, std::string_view what) {
  const std::string named = std::string(what) + ": " + path;
  struct stat facts {};
  if (::stat(path.c_str(), &facts) != 0) {
    throw std::invalid_argument(named + ": " + std::strerror(errno));
  }
  if (!S_ISREG(facts.st_mode)) throw std::invalid_argument(named + " is not a regular file");
  if (static_cast<std::size_t>(facts.st_size) > max_json_bytes) {
    throw std::invalid_argument(named + " is " + std::to_string(facts.st_size) +
                                " bytes, over the cap of " + std::to_string(max_json_bytes) +
                                " for a results file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::invalid_argument(named + ": cannot be read");
  std::string text;
  text.reserve(static_cast<std::size_t>(facts.st_size));
  text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (text.size() > max_json_bytes) throw std::invalid_argument(named + " grew past the cap");
  return text;
}

std::string with_non_finite_as_null(const std::string& text) {
  // Google Benchmark writes the coefficient of variation of a counter whose mean is 0 (wrong,
  // under repetitions) as a bare NaN, which is not JSON: no strict reader, nlohmann's included,
  // accepts it. null says "no figure" in a form every reader takes.
  static const std::regex non_finite(R"((:\s*)-?(NaN|nan|Infinity|inf)\b)");
  return std::regex_replace(text, non_finite, "$1null");
}

nlohmann::json parse_bounded_json(const std::string& text, std::string_view what) {
  // The parser itself keeps its own stack, but the value it builds is copied and destroyed
  // recursively: the cap must stop it while it parses.
  const nlohmann::json::parser_callback_t refuse_deep_nesting =
      [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
        const bool opens = event == nlohmann::json::parse_event_t::object_start ||
                           event == nlohmann::json::parse_event_t::array_start;
        if (opens && static_cast<std::size_t>(depth) >= max_json_depth) {
          throw std::invalid_argument(std::string(what) + ": nested deeper than " +
                                      std::to_string(max_json_depth) +
                                      " levels, which no results file is");
        }
        return true;
      };
  try {
    return nlohmann::json::parse(with_non_finite_as_null(text), refuse_deep_nesting);
  } catch (const nlohmann::json::exception& error) {
    throw std::invalid_argument(std::string(what) + ": not JSON: " + error.what());
  }
}

}  // namespace handoff::bench
