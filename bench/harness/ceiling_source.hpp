#pragma once
// Where this run's ceilings come from. A run that measures ceilings uses its own. A run filtered to
// some patterns either measures, after its rows, the ceilings those rows' floors name (main does
// that), or, asked to with --handoff-ceilings-from, reuses those of an earlier results file of the
// same machine: the manifests' machine entries must agree, or the reuse is refused. The JSON and
// the report say which.

#include <map>
#include <string>
#include <vector>

#include "ceiling_summary.hpp"

namespace handoff::bench {

struct ceilings_source {
  std::string kind = "measured";  // or "reused"
  std::string file;
  std::string measured_at;  // the date of the run the reused ceilings come from
  std::map<std::string, ceiling_value> reused;
  std::string note() const;
};

const ceilings_source& active_ceilings_source() noexcept;

// Reads the earlier file's ceilings after checking its machine against this one's manifest (keys
// without the context's "handoff_" prefix); throws std::invalid_argument with the first difference.
void reuse_ceilings_from(const std::string& path,
                         const std::map<std::string, std::string>& manifest);

// Back to "measured": for tests, which reuse in one process what a run does once.
void forget_reused_ceilings();

// This run's measured ceilings, and for each ceiling it did not measure, the reused one.
std::map<std::string, ceiling_value> ceilings_for_this_run(const std::vector<measured_run>& runs);

// The ceilings the rows' floors name (floor_bytes.X, floor_events.X) that neither this run nor
// the reused file has: what a filtered run measures after its rows.
std::vector<std::string> ceilings_still_needed(const std::vector<measured_run>& runs);

}  // namespace handoff::bench
