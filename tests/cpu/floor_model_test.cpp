#include "harness/floor_model.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "harness/ceiling_summary.hpp"

namespace handoff::bench {
namespace {

efficiency_row priced(const std::vector<measured_run>& runs) {
  const auto rows = efficiencies_from(runs, ceilings_from(runs));
  EXPECT_EQ(rows.size(), 1u);
  return rows.empty() ? efficiency_row{} : rows.front();
}

TEST(FloorModel, NamesEachCeilingWithTheFigureItWasPricedAtForThatSize) {
  // The ceiling at 1 MiB runs from cache at twice its rate from memory; 256 MiB is priced at the
  // 256 MiB rate, and the model says so.
  const auto row = priced({
      {"ceilings/pipe_between_processes/bytes:1048576/manual_time",
       1048576 / 8e9,
       {{"bytes", 1048576}}},
      {"ceilings/pipe_between_processes/bytes:268435456/manual_time",
       268435456 / 4e9,
       {{"bytes", 268435456}}},
      {"ceilings/kernel_launch_sync/manual_time", 0.002, {{"events", 1000}}},
      {"tensor_transfer/pipe/bytes:268435456/manual_time",
       0.1,
       {{"floor_bytes.pipe_between_processes", 268435456}, {"floor_events.kernel_launch_sync", 2}}},
  });
  EXPECT_EQ(
      describe_floor(row),
      "pipe_between_processes 268 MB at 4 GB/s (67.1 ms) + kernel_launch_sync 2 x 2 µs (4 µs)");
}

TEST(FloorModel, SaysWhenAFloorCountsOnlyLaunches) {
  const auto row = priced({
      {"ceilings/kernel_launch_sync/manual_time", 0.00877, {{"events", 1000}}},
      {"iterative/graph/unknowns:1048576/manual_time",
       0.0003,
       {{"floor_events.kernel_launch_sync", 1}}},
  });
  EXPECT_EQ(describe_floor(row), "launches only: kernel_launch_sync 1 x 8.77 µs");
}

TEST(FloorModel, AnOverlappedFloorIsItsSlowestTerm) {
  const auto row = priced({
      {"ceilings/pcie_d2h_pinned/manual_time", 4194304 / 50e9, {{"bytes", 4194304}}},
      {"postproc_split/overlapped/manual_time",
       0.001,
       {{"floor_bytes.pcie_d2h_pinned", 4194304},
        {"floor_seconds.post", 0.00012},
        {"floor_overlapped", 1}}},
  });
  EXPECT_EQ(describe_floor(row),
            "slowest of: pcie_d2h_pinned 4.19 MB at 50 GB/s (83.9 µs) | post 120 µs measured");
  EXPECT_DOUBLE_EQ(*row.floor_seconds, 0.00012);
}

TEST(FloorModel, FiguresReadInThePrefixTheyRoundTo) {
  const auto row = priced({
      {"ceilings/pcie_h2d_pinned/manual_time", 999600 / 999.7e6, {{"bytes", 999600}}},
      {"ceilings/process_start_with_context/manual_time", 0.15, {{"events", 1}}},
      {"independent_tasks/seed/manual_time",
       1.0,
       {{"floor_bytes.pcie_h2d_pinned", 999600}, {"floor_events.process_start_with_context", 1}}},
  });
  EXPECT_EQ(describe_floor(row),
            "pcie_h2d_pinned 1 MB at 1 GB/s (1 ms) + process_start_with_context 1 x 150 ms");
}

TEST(FloorModel, AProcessStartIsNoLaunch) {
  const auto row = priced({
      {"ceilings/process_start_with_context/manual_time", 0.15, {{"events", 1}}},
      {"independent_tasks/seed/manual_time", 1.0, {{"floor_events.process_start_with_context", 1}}},
  });
  EXPECT_EQ(describe_floor(row), "process_start_with_context 1 x 150 ms");
}

TEST(FloorModel, ARowWithoutAFloorHasNoModel) {
  EXPECT_EQ(describe_floor(efficiency_row{}), "");
}

}  // namespace
}  // namespace handoff::bench
