#pragma once
// One line per family on stderr as the run moves through its families: which family of how many,
// rows done of all, time elapsed, and an estimate of the time left from the rows so far; within a
// long family, a line every half minute with the row it is at. The plan
// comes from the registered rows and Google Benchmark's filter, matched the way Google Benchmark
// matches it (an extended regex searched in "<name>/manual_time", a leading '-' negating it).

#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "registration.hpp"

namespace handoff::bench {

// The registered rows that filter selects, in run order.
std::vector<registered_row> rows_selected_by(const std::string& filter,
                                             const std::vector<registered_row>& rows);

// The plan of a run of several passes: the selected rows once per pass.
std::vector<registered_row> rows_of_every_pass(const std::vector<registered_row>& selected,
                                               int passes);

class progress_lines {
 public:
  // program names the lines: handoff_bench, or the Python package's runs.
  progress_lines(std::ostream& out, std::vector<registered_row> plan,
                 std::string program = "handoff_bench");
  // More rows, run before the planned row at position (the ceilings a filtered run still needs,
  // in each of its passes); position past the plan appends. The totals the lines give stay those
  // of the rows asked for: an added row's line says it is one of the ceilings they need.
  void insert(std::size_t position, const std::vector<registered_row>& more);
  void row_finished(const std::string& name);
  void finished();

 private:
  void announce_family();
  // The family's line: on announcing it, its row count; again within it, the row it is at.
  void print_line(bool again);
  std::size_t family_count() const;  // of the rows asked for
  std::size_t asked_done() const;
  std::size_t family_rows(const std::string& family) const;
  // Seconds left: the rows left of each kind (ceilings, the rest) at that kind's time a row so
  // far, since a ceiling row costs far less than a pattern's row with its set-up.
  double seconds_left(double elapsed) const;

  std::ostream& out_;
  std::string program_;
  std::vector<registered_row> plan_;
  std::vector<bool> added_;  // beside plan_: a row inserted after the start
  std::size_t asked_ = 0;    // the rows asked for at the start
  std::size_t done_ = 0;
  std::size_t families_announced_ = 0;
  std::string announced_family_;
  std::size_t announced_at_ = 0;    // done_ when the family was announced
  std::size_t announced_rows_ = 0;  // its rows then, which the lines within it keep
  double seconds_by_kind_[2] = {};  // time the finished rows took, ceilings and the rest
  std::size_t done_by_kind_[2] = {};
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_line_ = started_;
  std::chrono::steady_clock::time_point last_row_ = started_;
};

}  // namespace handoff::bench
