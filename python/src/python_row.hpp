#pragma once
// One row of a Python benchmark, measured by handoff_bench's driver (bench/harness/measure.hpp)
// as a C++ row is: the row's object is a handoff.rows.NativeRow, whose setup() builds its case
// (untimed), poison() refills its outputs with the poison pattern before every run (untimed),
// run() is the timed hand-off (by CUDA events on the stream stream() names after setup, where it
// names one; else the wall clock), verify() returns (checked, wrong) for the last run,
// traffic() returns (bytes, items) per hand-off, floor_counters() the floor's terms as
// (floor_bytes.NAME or floor_events.NAME, amount) pairs, and close() ends its workers.

#include <nanobind/nanobind.h>

#include <string>

namespace handoff::python {

// Registers the row under name (pattern/variant/axis:value...) with Google Benchmark, through
// the suite's register_benchmark: manual time, one iteration that samples to the noise target,
// and an exception (a Python one included) failing the row rather than the run.
void register_python_row(const std::string& name, nanobind::object row);

}  // namespace handoff::python
