#pragma once
// All a pattern declares for the bench, next to its table: what the driver needs (pattern_spec),
// the size axes a user may choose the values of, and its benchmark families, each a target and
// the sweeps its rows are registered over. The bench's one registrar turns every pattern's
// declaration into benchmarks; a pattern has no bench file of its own.

#include <string_view>
#include <vector>

#include "handoff/patterns/compute_target.hpp"
#include "handoff/patterns/pattern_spec.hpp"
#include "handoff/patterns/pattern_sweep.hpp"

namespace handoff::patterns {

template <class Point, class Case, class Specifics = no_specifics>
struct sweep_family {
  // After the pattern's: "cpu", "gpu", or "vector_add/cpu" for a pattern of several tables.
  std::string_view name = {};
  int min_gpus = 0;
  compute_target target = compute_target::host_stand_in;
  // Registered one after the other (a pattern whose references, process rows and in-process
  // device rows are named and ordered differently).
  std::vector<pattern_sweep<Point, Case, Specifics>> sweeps = {};
  // In place of name: one family for each of the rows' own families (variant_row::family), in the
  // order of their first rows, each holding those rows only, needing the most GPUs any of them
  // does, and unavailable for the first of its rows' reasons.
  bool one_per_row_family = false;
};

template <class Point, class Case, class Specifics = no_specifics>
struct pattern_benchmarks {
  pattern_spec<Point, Case, Specifics> spec = {};
  // The axes of --handoff-axis the sweeps read (chosen_values), by their names in the rows' names.
  std::vector<std::string_view> settable_axes = {};
  std::vector<sweep_family<Point, Case, Specifics>> families = {};
};

}  // namespace handoff::patterns
