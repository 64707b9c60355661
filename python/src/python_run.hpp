#pragma once
// A run of Python rows, made as handoff_bench makes its own (bench/main.cpp): the same flags
// (Google Benchmark's and --handoff-*), the manifest and settings in the JSON context, the
// results file written as rows finish through results_writer, and the same exit status. Google
// Benchmark keeps its context and registry for the life of the process, so a process makes one
// run.

#include <nanobind/nanobind.h>

#include <string>
#include <utility>
#include <vector>

namespace handoff::python {

// Why a run could not be made or its results were lost, for the Python side's typed exceptions.
enum class run_problem { none, arguments, results_file, already_ran };

struct run_answer {
  int status = 0;  // handoff_bench's exit status
  run_problem problem = run_problem::none;
  std::string message;
};

// A Python benchmark this machine cannot run (no GPU, a library missing), as a skipped family of
// handoff_bench: its name (pattern/variant) and the reason, in the context and on stderr.
struct skipped_benchmark {
  std::string name;
  std::string reason;
};

// arguments: the command line, the program's name first. rows: (name, row) pairs, each row as
// python_row.hpp describes. variants_json: the context's handoff_variants record of the rows.
run_answer run_python_rows(std::vector<std::string> arguments,
                           std::vector<std::pair<std::string, nanobind::object>> rows,
                           const std::string& variants_json,
                           const std::vector<skipped_benchmark>& skipped);

}  // namespace handoff::python
