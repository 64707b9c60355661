#pragma once
// Files of the source tree that tests read: the report's fixtures, the results pages, the headline
// points.
// HANDOFF_SOURCE_DIR comes from tests/CMakeLists.txt.

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

namespace handoff::test_support {

inline std::string source_file(std::string_view relative_path) {
  return std::string(HANDOFF_SOURCE_DIR) + "/" + std::string(relative_path);
}

// The real H100 default-profile run docs/results/h100.md is written from.
inline const std::string h100_default_profile_run =
    source_file("reports/tests/fixtures/real/h100-default-profile.json");

inline std::string file_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace handoff::test_support
