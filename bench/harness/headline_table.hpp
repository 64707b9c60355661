#pragma once
// The headline table: per pattern, at its default size, what the recipe as written costs, what the
// fastest variant costs, what the best CPU way costs, and how close each is to its floor. The rules
// are the report's (reports/handoff_reports/headline.py), and so is the table of points
// (headline_points.hpp): a run's last lines and its report's first table agree row by row.
//
// A row is at the point when every axis it has takes the point's value there (a CPU variant has no
// `workers` or `start` axis, say); an axis of value {largest} takes the largest value measured
// (the GPU count). The fastest variant is the quickest usable row at the point that is not a CPU
// way, the recipe included.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "headline_points.hpp"
#include "name_parts.hpp"

namespace handoff::bench {

// One repetition's figure: its median sample and that median's 95% interval where written.
struct headline_figure {
  double seconds = 0.0;
  std::optional<double> ci_low;
  std::optional<double> ci_high;
};

using seconds_interval = std::pair<double, double>;

// One benchmark of a run, all its repetitions, as the report reads it from the results file.
struct headline_row {
  name_parts name;
  std::vector<headline_figure> figures;  // the repetitions that did not fail
  std::vector<double> floors;            // each repetition's floor, where it has one
  bool failed = false;                   // errored, wrong, or a damaged figure: never a figure

  double median_seconds() const;  // the median of the repetitions' medians; NaN with none
  std::optional<double> floor_seconds() const;
  std::optional<double> efficiency() const;  // floor over median time
  // The interval compare judges the row by (compare_stats.side_of in the reports): the range of
  // the repetitions' intervals and medians; over many repetitions (passes), the median's own 95%
  // interval from their medians. Empty where a repetition has no interval of its own.
  std::optional<seconds_interval> interval() const;
};

// A cell group of the table: a row, and the axes that make it a CPU way ("compute:host").
struct headline_entry {
  headline_row row;
  std::string note;
  std::string variant() const;  // "streamed (compute:host)"
};

struct headline_line {
  std::string pattern;
  std::string point;  // the point's axes as a name fragment, {largest} resolved
  std::optional<headline_entry> recipe;
  std::optional<headline_entry> fastest;
  std::optional<headline_entry> best_cpu;

  std::optional<double> speedup() const;  // the recipe's time over the fastest variant's
  // The speedup's least and most, from the ends of the two intervals.
  std::optional<seconds_interval> speedup_interval() const;
};

// The pattern's line; empty when no row of the pattern was measured at its point.
std::optional<headline_line> headline_line_for(const headline_point& spec,
                                               const std::vector<headline_row>& rows);

// The lines of the patterns measured at their points, in the points' order. A key that several rows
// hold counts once, as the first has it.
std::vector<headline_line> headline_table(const std::vector<headline_row>& rows,
                                          const std::vector<headline_point>& points);
std::vector<headline_line> headline_table(const std::vector<headline_row>& rows);

}  // namespace handoff::bench
