#include "library_build_note.hpp"

#include <string_view>

namespace handoff::bench {

std::string with_library_build_explained(std::string printed) {
  constexpr std::string_view warning =
      "***WARNING*** Library was built as DEBUG. Timings may be affected.";
  constexpr std::string_view note =
      "note: this Google Benchmark library was built without NDEBUG (as Debian ships it); "
      "handoff times every row itself (manual time), so its build does not enter the figures.";
  if (const auto at = printed.find(warning); at != std::string::npos)
    printed.replace(at, warning.size(), note);
  return printed;
}

}  // namespace handoff::bench
