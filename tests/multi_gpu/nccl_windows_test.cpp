// nccl_allgather_window on two or more GPUs: where every pair of GPUs reaches the other directly
// (NCCL's symmetric memory needs them all linked), NCCL returns a window for every device's copy
// of an even plan, gathered in place by ncclAllGather, and the gather verifies; an uneven plan
// (grouped broadcasts) asks for no window and verifies too. The slots' outputs lent to the
// in-place gather come back with it. Which path NCCL's gather took is in NCCL's log,
// not here (ci/multigpu's nccl-paths.log). That it verifies at every size, scope and partitioner on
// any GPU count is conformance_test.cpp's.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/patterns/multi_gpu/variants.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff::multi_gpu_tests {
namespace {

using namespace patterns::multi_gpu;

bool every_pair_linked(int gpus) {
  const auto can_access = peer_access_matrix(gpus);
  for (int hub = 0; hub < gpus; ++hub) {
    if (!peer_access_unavailable_reason(can_access, hub, gpus).empty()) return false;
  }
  return true;
}

double figure_named(const std::vector<patterns::named_figure>& figures, const std::string& name) {
  const auto found = std::ranges::find(figures, name, &patterns::named_figure::name);
  return found == figures.end() ? -1.0 : found->value;
}

TEST(NcclWindows, EveryCopyIsRegisteredWhereEveryPairOfGpusIsLinked) {
  HANDOFF_REQUIRE_GPUS(2);
  const int gpus = gpu_count().count;
  if (const auto reason = multi_gpu_unavailable_reason("nccl_allgather_window", gpus);
      !reason.empty()) {
    GTEST_SKIP() << reason;
  }
  const bool linked = every_pair_linked(gpus);
  const auto& row = patterns::find_row(multi_gpu_variants(), "nccl_allgather_window");
  const std::size_t even = std::size_t{4096} * static_cast<std::size_t>(gpus);
  for (const std::size_t elements : {even, even + 1}) {
    SCOPED_TRACE(std::to_string(gpus) + " GPUs, " + std::to_string(elements) + " elements");
    const multi_gpu_point at{{"scale_by_two", gpus, partitioner::even, elements, 256},
                             run_scope::gather};
    auto work = make_multi_gpu_case(at);
    auto session = row.setup(at, patterns::compute_target::device);
    for (int run = 0; run < 2; ++run) {
      session->poison(*work);
      session->run(*work);
      EXPECT_TRUE(session->verify(*work).passed()) << "run " << run;
    }
    const auto figures = session->figures();
    const double registered = figure_named(figures, "nccl_windows_registered");
    EXPECT_EQ(figure_named(figures, "nccl_in_place"), elements == even ? 1.0 : 0.0);
    // The slots' outputs are lent to the gather while it lives, and given back with it: a
    // variant after it on the same devices computes into the slots' own outputs and verifies.
    const auto& slots = work->shared_setup()->devices->slots();
    EXPECT_EQ(slots.front().lent_output != nullptr, elements == even);
    session.reset();
    EXPECT_TRUE(
        std::ranges::all_of(slots, [](const auto& slot) { return slot.lent_output == nullptr; }));
    auto after = patterns::find_row(multi_gpu_variants(), "nccl_allgather")
                     .setup(at, patterns::compute_target::device);
    after->poison(*work);
    after->run(*work);
    EXPECT_TRUE(after->verify(*work).passed()) << "nccl_allgather after the window's gather";
    if (elements != even) {
      EXPECT_EQ(registered, 0.0) << "an uneven plan's broadcasts go into ordinary memory";
    } else if (linked) {
      EXPECT_EQ(registered, 1.0) << "NCCL registered no window on GPUs that all reach each other";
    } else {
      EXPECT_TRUE(registered == 0.0 || registered == 1.0) << registered;
    }
  }
}

}  // namespace
}  // namespace handoff::multi_gpu_tests
