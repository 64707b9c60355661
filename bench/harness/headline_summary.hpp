#pragma once
// The headline table as the last section of the end-of-run summary, after the efficiencies and the
// scaling: per pattern at its default size, the recipe, the fastest variant and the best CPU way,
// each with its median, interval, floor and efficiency, and the fastest over the recipe. It is the
// table `handoff-headline` prints from this run's results file, so a run ends with the figures its
// report opens with.

#include <ostream>
#include <string>
#include <vector>

#include "ceiling_summary.hpp"

namespace handoff::bench {

// runs: the verified repetitions; failed_names: benchmarks that errored or were wrong. Prints
// nothing for a run that measured nothing; says so when no pattern ran at its default point.
void print_headline(std::ostream& out, const std::vector<measured_run>& runs,
                    const std::vector<std::string>& failed_names);

}  // namespace handoff::bench
