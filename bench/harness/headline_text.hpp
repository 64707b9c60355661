#pragma once
// The headline table as text, cell for cell as the report writes it (reports/handoff_reports/
// headline.py, formatting.py): "seed 35.61 ms [34.99 ms, 36.33 ms], floor 8.399 ms (23.6%)".

#include <optional>
#include <string>
#include <vector>

#include "headline_table.hpp"

namespace handoff::bench {

std::string seconds_text(std::optional<double> seconds);  // "35.61 ms", "24.21 µs"; "–" for none
std::string percent_text(std::optional<double> fraction);  // "23.6%"; "–" for none

// "variant median [low, high], floor F (E%)", with SUSPECT past its floor; "–" for none.
std::string entry_text(const std::optional<headline_entry>& entry);
// "11.7× [11.4, 12.1]"; "–" without a recipe.
std::string speedup_text(const headline_line& line);

// Per pattern, a block of one line per column: what handoff-headline prints.
std::string headline_text_table(const std::vector<headline_line>& lines);
// The Markdown table of handoff-headline --format markdown, and of the pages in docs/results.
std::string headline_markdown_table(const std::vector<headline_line>& lines);

}  // namespace handoff::bench
