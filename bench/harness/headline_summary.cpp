#include "headline_summary.hpp"

#include "ceiling_source.hpp"
#include "headline_rows.hpp"
#include "headline_text.hpp"

namespace handoff::bench {

void print_headline(std::ostream& out, const std::vector<measured_run>& runs,
                    const std::vector<std::string>& failed_names) {
  if (runs.empty() && failed_names.empty()) return;
  // The floors the results file is annotated with (results_annotation.cpp), from the same ceilings.
  const auto floors = efficiencies_from(runs, ceilings_for_this_run(runs));
  const auto lines = headline_table(headline_rows_from(runs, failed_names, floors));
  out << "\nHeadline: per pattern at its default size, the recipe as written, the fastest variant "
         "and the best CPU way: median [95% interval], floor (efficiency)\n";
  if (lines.empty()) {
    out << "  (no row of any pattern at its default point in this run)\n";
  } else {
    out << headline_text_table(lines);
  }
  out.flush();
}

}  // namespace handoff::bench
