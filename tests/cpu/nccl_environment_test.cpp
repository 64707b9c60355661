#include "harness/nccl_environment.hpp"

#include <gtest/gtest.h>

namespace handoff::bench {
namespace {

TEST(NcclEnvironment, NamesEveryNcclVariableSortedAndNothingElse) {
  const char* environment[] = {
      "PATH=/usr/bin",  "NCCL_PROTO=Simple", "NCCL_NVLS_ENABLE=0",    "MY_NCCL_THING=1",
      "NCCL_BUFFSIZE=", "NCCL_BROKEN",       "NCCL_MIN_NCHANNELS=32", nullptr};
  EXPECT_EQ(describe_nccl_environment(environment),
            "NCCL_BUFFSIZE=; NCCL_MIN_NCHANNELS=32; NCCL_NVLS_ENABLE=0; NCCL_PROTO=Simple");
}

TEST(NcclEnvironment, NoneWhenNothingIsSet) {
  const char* without[] = {"HOME=/root", nullptr};
  EXPECT_EQ(describe_nccl_environment(without), "none");
  const char* empty[] = {nullptr};
  EXPECT_EQ(describe_nccl_environment(empty), "none");
  EXPECT_EQ(describe_nccl_environment(nullptr), "none");
}

}  // namespace
}  // namespace handoff::bench
