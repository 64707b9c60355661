// handoff_bench_mpi's rows come from the multi_gpu table: the names below are the ones it has
// always measured, so a change of the table that moves them shows here, where no GPU is needed.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "handoff/patterns/multi_gpu/workload_registry.hpp"
#include "mpi/mpi_rows.hpp"

namespace handoff::bench::mpi {
namespace {

using patterns::multi_gpu::multi_gpu_row;
using patterns::multi_gpu::registered_workloads;
using patterns::multi_gpu::workload_rows;

std::string everywhere(const multi_gpu_row&) {
  return {};
}

std::vector<std::string> names_of(const mpi_rows& made) {
  std::vector<std::string> names;
  for (const auto& row : made.rows)
    names.push_back(row.name);
  return names;
}

std::vector<std::string> expected(const std::string& size, bool with_windows) {
  std::vector<std::string> names;
  for (const auto* each : registered_workloads()) {
    const std::string axes =
        "/workload:" + each->name + "/gpus:2/partitioner:even/elements:" + size;
    const auto add = [&](const std::string& variant, const std::string& scope) {
      names.push_back("multi_gpu_mpi/" + variant + axes + "/scope:" + scope);
    };
    if (each->rows == workload_rows::placement_check) {
      add("kernel_only", "from_host");
      add("nccl_allgather", "from_host");
      if (with_windows) add("nccl_allgather_window", "from_host");
      continue;
    }
    add("kernel_only", "resident");
    add("kernel_only", "from_host");
    for (const std::string scope : {"gather", "resident", "from_host"})
      add("nccl_allgather", scope);
    if (with_windows) {
      for (const std::string scope : {"gather", "resident", "from_host"})
        add("nccl_allgather_window", scope);
    }
  }
  return names;
}

TEST(MpiRows, TheTablesRowsThatRunAcrossRanksAtEachScopeTheyHave) {
  const auto made = rows_across_ranks(bench_config{}, 2, everywhere);
  EXPECT_EQ(names_of(made), expected("268435456", true));
  EXPECT_TRUE(made.left_out.empty());
  bool saw_placement_check = false;
  for (const auto* each : registered_workloads())
    saw_placement_check |= each->rows == workload_rows::placement_check;
  EXPECT_TRUE(saw_placement_check) << "the article's add_device_value checks placement";
}

TEST(MpiRows, ARowThisMachineCannotRunIsLeftOutWithItsReason) {
  const auto made = rows_across_ranks(bench_config{}, 2, [](const multi_gpu_row& row) {
    return row.name == "nccl_allgather_window" ? std::string("no symmetric windows") : "";
  });
  EXPECT_EQ(names_of(made), expected("268435456", false));
  ASSERT_EQ(made.left_out.size(), 1u);
  EXPECT_EQ(made.left_out[0].first, "nccl_allgather_window");
  EXPECT_EQ(made.left_out[0].second, "no symmetric windows");
}

TEST(MpiRows, ASmokeRunAndAnElementCapSetTheSize) {
  bench_config smoke;
  smoke.smoke = true;
  EXPECT_EQ(names_of(rows_across_ranks(smoke, 2, everywhere)), expected("4099", true));
  bench_config capped;
  capped.max_elements = 1'000'000;
  EXPECT_EQ(names_of(rows_across_ranks(capped, 2, everywhere)), expected("1000000", true));
}

TEST(MpiRows, EachRowCarriesItsGatherAndScope) {
  for (const auto& row : rows_across_ranks(bench_config{}, 2, everywhere).rows) {
    const bool nccl = row.name.starts_with("multi_gpu_mpi/nccl_allgather");
    EXPECT_EQ(row.form.gather == patterns::multi_gpu::gather_kind::nccl, nccl) << row.name;
    EXPECT_EQ(row.form.memory == patterns::multi_gpu::nccl_result_memory::symmetric_window,
              row.name.starts_with("multi_gpu_mpi/nccl_allgather_window/"))
        << row.name;
    EXPECT_EQ(row.config.gpus, 2) << row.name;
    EXPECT_NE(row.name.find("/scope:" + std::string(run_scope_name(row.scope))), std::string::npos)
        << row.name;
  }
}

}  // namespace
}  // namespace handoff::bench::mpi
