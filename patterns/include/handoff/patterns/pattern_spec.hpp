#pragma once
// What the benchmark driver needs of a pattern besides each row: the pattern's name, its table,
// how to make the case of a point, and what one run moves and computes.

#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "handoff/patterns/variant.hpp"

namespace handoff::patterns {

template <class Point, class Case, class Specifics = no_specifics>
struct pattern_spec {
  std::string_view pattern;  // the first part of every row name
  variant_table<Point, Case, Specifics> table;
  std::unique_ptr<Case> (*make_case)(const Point& at) = nullptr;
  // Bytes and items one run moves and computes (the bytes and items counters).
  std::pair<double, double> (*traffic)(const Point& at) = nullptr;
  // Figures of the configuration (workers, chunk size), beside the session's own.
  std::vector<named_figure> (*figures)(const Point& at) = nullptr;
};

}  // namespace handoff::patterns
