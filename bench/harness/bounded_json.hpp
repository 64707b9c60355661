#pragma once
// Every JSON handoff_bench reads (an earlier results file, its own snapshot) is parsed with a cap
// on its size and on its nesting, as the report package's reader is: a file nested hundreds of
// thousands deep would otherwise overflow the stack in the JSON library's recursive copy and
// destruction, and a huge one would be read whole into memory.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace handoff::bench {

// The same cap as reports/handoff_reports/input_files.py: results files nest about six deep.
inline constexpr std::size_t max_json_depth = 64;
// The full profile's results on eight GPUs are a few megabytes.
inline constexpr std::size_t max_json_bytes = std::size_t{256} << 20;

// Bare NaN and infinities, which Google Benchmark writes but JSON lacks, replaced by null.
std::string with_non_finite_as_null(const std::string& text);

// std::invalid_argument naming `what`, the file and the cap exceeded, for a file that is too large
// or cannot be read.
std::string read_bounded_file(const std::string& path, std::string_view what);

// Parses text, whose bare NaN and infinities become null; std::invalid_argument naming `what` for
// text that is not JSON or nests deeper than max_json_depth.
nlohmann::json parse_bounded_json(const std::string& text, std::string_view what);

}  // namespace handoff::bench
