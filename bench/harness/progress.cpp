#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <set>

namespace handoff::bench {
namespace {

std::string minutes_and_seconds(double seconds) {
  const auto whole = static_cast<long>(seconds + 0.5);
  char text[32];
  std::snprintf(text, sizeof text, "%ld:%02ld", whole / 60, whole % 60);
  return text;
}

}  // namespace

std::vector<registered_row> rows_selected_by(const std::string& filter,
                                             const std::vector<registered_row>& rows) {
  std::string spec = filter.empty() || filter == "all" ? "." : filter;
  const bool negative = spec.front() == '-';
  if (negative) spec.erase(0, 1);
  std::vector<registered_row> selected;
  try {
    const std::regex pattern(spec, std::regex::extended);
    for (const auto& row : rows) {
      if (std::regex_search(row.name + "/manual_time", pattern) != negative)
        selected.push_back(row);
    }
  } catch (const std::regex_error&) {
    return rows;  // Google Benchmark reports the bad filter itself; the plan is then a guess
  }
  return selected;
}

std::vector<registered_row> rows_of_every_pass(const std::vector<registered_row>& selected,
                                               int passes) {
  std::vector<registered_row> plan;
  for (int pass = 0; pass < passes; ++pass)
    plan.insert(plan.end(), selected.begin(), selected.end());
  return plan;
}

progress_lines::progress_lines(std::ostream& out, std::vector<registered_row> plan,
                               std::string program)
    : out_(out),
      program_(std::move(program)),
      plan_(std::move(plan)),
      added_(plan_.size(), false),
      asked_(plan_.size()) {
  announce_family();
}

void progress_lines::insert(std::size_t position, const std::vector<registered_row>& more) {
  const auto offset = static_cast<long>(std::min(position, plan_.size()));
  // Rows put before a family already announced but not begun: it is announced again after them,
  // and counted once.
  if (!more.empty() && static_cast<std::size_t>(offset) == done_ && announced_at_ == done_ &&
      done_ < plan_.size() && !added_[done_]) {
    --families_announced_;
    announced_family_.clear();
  }
  plan_.insert(plan_.begin() + offset, more.begin(), more.end());
  added_.insert(added_.begin() + offset, more.size(), true);
  announce_family();
}

std::size_t progress_lines::family_count() const {
  // A family resumed after rows put in between is announced again, so it counts again.
  std::size_t count = 0;
  std::string last;
  bool interrupted = true;
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    if (added_[i]) {
      interrupted = true;
      continue;
    }
    if (interrupted || last != plan_[i].family) ++count;
    last = plan_[i].family;
    interrupted = false;
  }
  return count;
}

std::size_t progress_lines::asked_done() const {
  const auto end = added_.begin() + static_cast<long>(std::min(done_, added_.size()));
  return static_cast<std::size_t>(std::count(added_.begin(), end, false)) +
         (done_ > plan_.size() ? done_ - plan_.size() : 0);
}

std::size_t progress_lines::family_rows(const std::string& family) const {
  // The run of consecutive rows of this family starting at the next row.
  std::size_t count = 0;
  for (std::size_t i = done_; i < plan_.size() && plan_[i].family == family; ++i)
    ++count;
  return count;
}

namespace {

std::size_t kind_of(const registered_row& row) {
  return row.name.starts_with("ceilings/") ? 0 : 1;
}

}  // namespace

void progress_lines::announce_family() {
  if (done_ >= plan_.size()) return;
  const auto& family = plan_[done_].family;
  if (family == announced_family_) return;
  announced_family_ = family;
  announced_at_ = done_;
  announced_rows_ = family_rows(family);
  if (!added_[done_]) ++families_announced_;
  print_line(false);
}

double progress_lines::seconds_left(double elapsed) const {
  const double overall = elapsed / static_cast<double>(done_);
  double left = 0.0;
  for (std::size_t i = done_; i < plan_.size(); ++i) {
    const auto kind = kind_of(plan_[i]);
    left += done_by_kind_[kind] > 0
                ? seconds_by_kind_[kind] / static_cast<double>(done_by_kind_[kind])
                : overall;
  }
  return left;
}

void progress_lines::print_line(bool again) {
  last_line_ = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(last_line_ - started_).count();
  std::string estimate = "estimate after the first family";
  if (done_ > 0) estimate = "about " + minutes_and_seconds(seconds_left(elapsed)) + " left";
  char where[96];
  if (again) {
    std::snprintf(where, sizeof where, "row %zu of %zu", done_ - announced_at_ + 1,
                  announced_rows_);
  } else {
    std::snprintf(where, sizeof where, "%zu rows", announced_rows_);
  }
  char which[128];
  if (done_ < plan_.size() && added_[done_]) {
    std::snprintf(which, sizeof which, "the ceilings these rows need");
  } else {
    std::snprintf(which, sizeof which, "family %zu of %zu", families_announced_,
                  std::max(family_count(), families_announced_));
  }
  char line[512];
  std::snprintf(line, sizeof line, "%s: %s: %s (%s); %zu of %zu rows done, %s elapsed, %s\n",
                program_.c_str(), which, announced_family_.c_str(), where, asked_done(), asked_,
                minutes_and_seconds(elapsed).c_str(), estimate.c_str());
  out_ << line << std::flush;
}

void progress_lines::row_finished(const std::string& name) {
  // Rows finish in plan order; a name the plan lacks (a guessed filter) still counts as one row.
  const auto found = std::find_if(plan_.begin() + static_cast<long>(std::min(done_, plan_.size())),
                                  plan_.end(), [&](const auto& row) { return row.name == name; });
  const auto now = std::chrono::steady_clock::now();
  const auto kind = found != plan_.end() ? kind_of(*found) : kind_of({name, {}});
  seconds_by_kind_[kind] += std::chrono::duration<double>(now - last_row_).count();
  ++done_by_kind_[kind];
  last_row_ = now;
  if (found != plan_.end()) {
    done_ = static_cast<std::size_t>(found - plan_.begin()) + 1;
  } else {
    ++done_;
  }
  announce_family();
  if (now - last_line_ > std::chrono::seconds(30) && done_ < plan_.size()) print_line(true);
}

void progress_lines::finished() {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const std::size_t added = plan_.size() - asked_;
  out_ << "handoff_bench: " << std::min(asked_done(), asked_) << " of " << asked_
       << " rows done in " << minutes_and_seconds(elapsed);
  if (added > 0) out_ << ", and " << added << " rows of the ceilings they need";
  out_ << "\n" << std::flush;
}

}  // namespace handoff::bench
