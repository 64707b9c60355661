#pragma once
// Conformance checks every pattern's test file runs over its variant table, row by row (a
// parameterised test per pattern, with the rows as parameters: row_test and
// HANDOFF_INSTANTIATE_ROWS): the variant runs and verifies twice in a row with the outputs poisoned
// between, at the sizes the pattern names (empty, one, uneven); a peer process killed between runs
// fails the next run with a typed process error that names it, leaving no process and no shared
// memory held.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/types.h>

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "handoff/patterns/variant.hpp"
#include "handoff/transport/process_errors.hpp"
#include "support/leak_checks.hpp"

namespace handoff::test_support {

template <class Point, class Case>
using case_maker = std::unique_ptr<Case> (*)(const Point&);

// A conformance point with the name its failures are traced by.
template <class Point>
struct named_point {
  const char* what;
  Point at;
};

// The fixture of a test parameterised over a table's rows: the parameter is a row's name, and
// row() that row of table() (the pattern's function returning its variant_table).
template <auto table>
class row_test : public ::testing::TestWithParam<std::string> {
 protected:
  const auto& row() const { return patterns::find_row(table(), GetParam()); }
};

// The name of a row_test's test: its row's.
inline std::string row_name(const ::testing::TestParamInfo<std::string>& instance) {
  return instance.param;
}

// Instantiates the TEST_Ps of fixture (a row_test) once per row named in names, each test named
// after its row.
#define HANDOFF_INSTANTIATE_ROWS(fixture, names)                      \
  INSTANTIATE_TEST_SUITE_P(Rows, fixture, ::testing::ValuesIn(names), \
                           ::handoff::test_support::row_name)

// The names of a table's rows that run on target, for INSTANTIATE_TEST_SUITE_P.
template <class Point, class Case, class Specifics>
std::vector<std::string> rows_running_on(patterns::variant_table<Point, Case, Specifics> table,
                                         patterns::compute_target target) {
  std::vector<std::string> names;
  for (const auto& row : table)
    if (row.targets.supports(target)) names.emplace_back(row.name);
  return names;
}

template <class Point, class Case, class Specifics>
void expect_runs_and_verifies(const patterns::variant_row<Point, Case, Specifics>& row,
                              const Point& at, patterns::compute_target target,
                              case_maker<Point, Case> make_case) {
  auto work = make_case(at);
  auto session = row.setup(at, target);
  for (int run = 0; run < 2; ++run) {
    session->poison(*work);
    session->run(*work);
    const auto verdict = session->verify(*work);
    EXPECT_TRUE(verdict.passed()) << row.name << ", run " << run << ": " << verdict.describe();
  }
  session->shutdown();
  for (const pid_t peer : session->peers())
    EXPECT_FALSE(leak_checks::process_exists(peer)) << row.name << ": peer " << peer << " left";
}

// expect_runs_and_verifies at each of points, each traced by its name.
template <class Point, class Case, class Specifics, std::size_t count>
void expect_runs_and_verifies_at(const patterns::variant_row<Point, Case, Specifics>& row,
                                 const named_point<Point> (&points)[count],
                                 patterns::compute_target target,
                                 case_maker<Point, Case> make_case) {
  for (const auto& [what, at] : points) {
    SCOPED_TRACE(what);
    expect_runs_and_verifies(row, at, target, make_case);
  }
}

// expect_runs_and_verifies at each of points, each traced by describe(point).
template <class Point, class Case, class Specifics, class Describe>
void expect_runs_and_verifies_at(const patterns::variant_row<Point, Case, Specifics>& row,
                                 std::type_identity_t<std::span<const Point>> points,
                                 patterns::compute_target target, case_maker<Point, Case> make_case,
                                 Describe describe) {
  for (const auto& at : points) {
    SCOPED_TRACE(describe(at));
    expect_runs_and_verifies(row, at, target, make_case);
  }
}

// shm_fragment: what the pattern's segment names contain (its purpose string).
template <class Point, class Case, class Specifics>
void expect_killed_peer_is_typed_error(const patterns::variant_row<Point, Case, Specifics>& row,
                                       const Point& at, patterns::compute_target target,
                                       case_maker<Point, Case> make_case,
                                       const std::string& shm_fragment) {
  auto work = make_case(at);
  std::vector<pid_t> peers;
  {
    auto session = row.setup(at, target);
    session->run(*work);
    peers = session->peers();
    ASSERT_FALSE(peers.empty()) << row.name << " started no peer process to kill";
    ASSERT_EQ(::kill(peers.front(), SIGKILL), 0);
    try {
      session->run(*work);
      ADD_FAILURE() << row.name << ": a run with a killed peer returned";
    } catch (const transport::process_error& error) {
      EXPECT_NE(std::string(error.what()).find(std::to_string(peers.front())), std::string::npos)
          << row.name << ": the error does not name pid " << peers.front() << ": " << error.what();
    }
  }
  for (const pid_t peer : peers)
    EXPECT_FALSE(leak_checks::process_exists(peer)) << row.name << ": peer " << peer << " left";
  EXPECT_TRUE(leak_checks::held_segments_containing(shm_fragment).empty())
      << row.name << " left shared memory behind";
}

}  // namespace handoff::test_support
