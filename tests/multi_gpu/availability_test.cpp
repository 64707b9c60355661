// Each multi_gpu row says for itself whether this build and machine can run it: the gathers that
// need peer access or NCCL carry their reason, the others none.

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "handoff/patterns/multi_gpu/variants.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

TEST(MultiGpuAvailability, OnlyThePeerAndNcclGathersCarryAReason) {
  std::set<std::string> with_reason;
  for (const auto& row : multi_gpu_variants())
    if (row.unavailable_reason) with_reason.emplace(row.name);
  EXPECT_EQ(with_reason,
            (std::set<std::string>{"p2p_gather", "nccl_allgather", "nccl_allgather_window"}));
}

TEST(MultiGpuAvailability, AnUnknownVariantIsAnErrorNamingIt) {
  try {
    multi_gpu_unavailable_reason("no_such_gather", 2);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("no_such_gather"), std::string::npos);
  }
}

}  // namespace
}  // namespace handoff::patterns::multi_gpu
