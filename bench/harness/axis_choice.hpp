#pragma once
// --handoff-axis=NAME:V1,V2,...: the user's own values for a size axis, measured in place of the
// profile's sweep, as nvbench's --axis. Each family declares the axes it has; an axis that no
// family this machine runs has is an error, so a request is never dropped without a word.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/patterns/sweep_settings.hpp"

namespace handoff::bench {

struct bench_config;
struct family_plan;

// The axes that can be set, with what each sizes; the names are those in the rows' names.
struct settable_axis {
  std::string_view name;
  std::string_view sizes;
};
inline constexpr settable_axis settable_axes[] = {
    {"bytes", "tensor_transfer's tensor, in bytes (a multiple of 4)"},
    {"elements",
     "elementwise's vector_add, square and neg_b_over_a, and postproc_split's c, in floats"},
    {"n", "elementwise's affine: the order of its n x n matrix, at most 2^15"},
    {"unknowns", "iterative's Jacobi system"},
};

// The values asked for, by axis name; the patterns' sweeps read them (patterns::chosen_values).
using axis_choices = patterns::axis_values;

// Adds one --handoff-axis value ("NAME:V1,V2,..."; a value is a count such as 1000000 or a power
// of two written 2^20). An unknown axis, a missing or bad value, or an axis given twice is
// std::invalid_argument naming the flag and the settable axes.
void add_axis_choice(axis_choices& choices, std::string_view text);

// Checks every chosen value against the element cap and the axis's own rule; std::invalid_argument
// otherwise. Run once the cap is final.
void check_axis_choices(const axis_choices& choices, std::uint64_t max_elements);

// The chosen axes that no family of the plan that runs has.
std::vector<std::string> chosen_axes_nobody_read(const bench_config& config,
                                                 const std::vector<family_plan>& plan);

std::string settable_axes_help();

}  // namespace handoff::bench
