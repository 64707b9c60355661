#pragma once
// The one registrar: turns a pattern's declaration (patterns::pattern_benchmarks, next to its
// table) into benchmark families, and each family's sweeps into rows. A row is registered where
// it runs on the family's target and at the points it is measured at (its measured_at), in the
// order the sweep declares (pattern_sweep.hpp).

#include <algorithm>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "axis_choice.hpp"
#include "bench_config.hpp"
#include "driver.hpp"
#include "family_registry.hpp"
#include "handoff/patterns/pattern_benchmarks.hpp"
#include "registration.hpp"

namespace handoff::bench {

template <class Point, class Case, class Specifics>
bool in_family(const patterns::pattern_sweep<Point, Case, Specifics>& sweep,
               const patterns::variant_row<Point, Case, Specifics>& row,
               patterns::compute_target target) {
  if (sweep.rows == patterns::family_rows::by_target) return row.targets.supports(target);
  return target == patterns::compute_target::device ? !row.targets.cpu : row.targets.cpu;
}

// Registers the rows of spec's table that sweep runs on target, and where `only` is given, only
// the rows it accepts (a family of the rows that name it).
template <class Point, class Case, class Specifics>
void register_sweep(const pattern_spec<Point, Case, Specifics>& spec,
                    const patterns::pattern_sweep<Point, Case, Specifics>& sweep,
                    const patterns::sweep_settings& settings, patterns::compute_target target,
                    const std::function<bool(const patterns::variant_row<Point, Case, Specifics>&)>&
                        only = nullptr) {
  using row_type = patterns::variant_row<Point, Case, Specifics>;
  const auto has_cold = [&](const row_type& row) {
    return sweep.cold_samples && row.cold != patterns::cold_kind::none;
  };
  const auto runs_at = [&](const row_type& row, const Point& at, start how) {
    return in_family(sweep, row, target) && patterns::is_measured_at(row, at) &&
           (how == start::warm || has_cold(row)) &&
           (sweep.row_runs_at == nullptr || sweep.row_runs_at(settings, row, at, target, how));
  };
  const auto axes_of = [&](const row_type& row, const Point& at, std::optional<start> how) {
    auto axes = sweep.axes(at, target, how);
    if (sweep.row_has_axis != nullptr) {
      std::erase_if(axes, [&](const auto& axis) { return !sweep.row_has_axis(row, axis.first); });
    }
    return axes;
  };
  const auto add = [&](const row_type& row, const Point& at, start how) {
    const auto named_start = has_cold(row) ? std::optional<start>(how) : std::nullopt;
    register_variant(spec, row, at, target, how,
                     benchmark_name(std::string(spec.pattern), std::string(row.name),
                                    axes_of(row, at, named_start)),
                     sweep.cold_samples ? sweep.cold_samples(settings, at) : 3);
  };
  std::vector<const row_type*> rows;
  for (const auto& row : spec.table) {
    if (!only || only(row)) rows.push_back(&row);
  }
  if (sweep.leads != nullptr) {
    std::stable_partition(rows.begin(), rows.end(),
                          [&](const row_type* row) { return sweep.leads(*row); });
  }
  if (sweep.steps != nullptr) {
    const auto steps = sweep.steps(settings, target);
    const auto add_step = [&](const row_type& row, const std::pair<Point, start>& step) {
      if (runs_at(row, step.first, step.second)) add(row, step.first, step.second);
    };
    if (sweep.rows_outermost) {
      for (const row_type* row : rows)
        for (const auto& step : steps)
          add_step(*row, step);
    } else {
      for (const auto& step : steps)
        for (const row_type* row : rows)
          add_step(*row, step);
    }
    return;
  }
  const auto add_at = [&](const row_type& row, const Point& at) {
    if (runs_at(row, at, start::warm)) add(row, at, start::warm);
    const bool cold_here = sweep.cold_at == nullptr || sweep.cold_at(settings, at);
    if (sweep.cold_points == nullptr && cold_here && runs_at(row, at, start::cold))
      add(row, at, start::cold);
  };
  const auto points = sweep.points(settings);
  if (sweep.rows_outermost) {
    for (std::size_t first = 0; first < points.size();) {
      std::size_t end = first + 1;
      while (end < points.size() &&
             (sweep.same_group == nullptr || sweep.same_group(points[first], points[end])))
        ++end;
      for (const row_type* row : rows)
        for (std::size_t index = first; index < end; ++index)
          add_at(*row, points[index]);
      first = end;
    }
  } else {
    for (const Point& at : points)
      for (const row_type* row : rows)
        add_at(*row, at);
  }
  if (sweep.cold_points == nullptr) return;
  const auto cold_points = sweep.cold_points(settings);
  for (const row_type* row : rows) {
    for (const Point& at : cold_points) {
      if (runs_at(*row, at, start::cold)) add(*row, at, start::cold);
    }
  }
}

// The benchmark families pattern declares, in its order; a family of the rows' own families
// (one_per_row_family) is one family for each, in the order of their first rows.
template <class Point, class Case, class Specifics>
std::vector<benchmark_family> families_of(
    const patterns::pattern_benchmarks<Point, Case, Specifics>& pattern) {
  using row_type = patterns::variant_row<Point, Case, Specifics>;
  using row_filter = std::function<bool(const row_type&)>;
  const auto registrar = [&pattern](const patterns::sweep_family<Point, Case, Specifics>& family,
                                    row_filter only) {
    return [&pattern, &family, only](const bench_environment& environment) {
      const auto settings = sweep_settings_of(environment);
      for (const auto& sweep : family.sweeps)
        register_sweep(pattern.spec, sweep, settings, family.target, only);
    };
  };
  const std::string prefix = std::string(pattern.spec.pattern) + "/";
  const std::vector<std::string> declared_axes(pattern.settable_axes.begin(),
                                               pattern.settable_axes.end());
  std::vector<benchmark_family> families;
  for (const auto& family : pattern.families) {
    if (!family.one_per_row_family) {
      families.push_back({.name = prefix + std::string(family.name),
                          .min_gpus = family.min_gpus,
                          .register_benchmarks = registrar(family, nullptr),
                          .settable_axes = declared_axes});
      continue;
    }
    const auto first_of_its_family = families.size();
    for (const auto& row : pattern.spec.table) {
      const auto name = prefix + std::string(row.family);
      auto made = std::ranges::find(families.begin() + first_of_its_family, families.end(), name,
                                    &benchmark_family::name);
      if (made == families.end()) {
        const auto of_family = [row_family = row.family](const row_type& each) {
          return each.family == row_family;
        };
        families.push_back({.name = name,
                            .min_gpus = family.min_gpus,
                            .register_benchmarks = registrar(family, of_family),
                            .unavailable_reason =
                                [&pattern, of_family](const bench_environment& environment) {
                                  for (const auto& member : pattern.spec.table) {
                                    if (!of_family(member)) continue;
                                    if (auto reason = patterns::unavailable_reason_of(
                                            member, environment.gpus.count);
                                        !reason.empty())
                                      return reason;
                                  }
                                  return std::string();
                                },
                            .settable_axes = declared_axes});
        made = std::prev(families.end());
      }
      made->min_gpus = std::max(made->min_gpus, row.min_gpus);
    }
  }
  return families;
}

}  // namespace handoff::bench
