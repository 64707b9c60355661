// CUDA used in a forked child of a CUDA-initialised parent is caught up front and named, instead of
// failing deep in the runtime with cudaErrorInitializationError, or hanging.

#include "handoff/fork_guard.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "handoff/device_buffer.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/stream.hpp"
#include "support/forked_child.hpp"
#include "support/gpu_requirement.hpp"

namespace handoff {
namespace {

// Exit codes a forked child reports its verdict with.
enum child_verdict : int {
  refused_by_name = 0,
  allocation_succeeded = 1,
  message_lacks_a_detail = 2,
  wrong_exception_type = 3,
  stream_not_refused = 4,
  gpus_still_counted = 5,
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int verdict_in_child(pid_t parent) {
  try {
    const device_buffer<float> buffer(16);
    return allocation_succeeded;
  } catch (const cuda_used_after_fork& error) {
    const std::string message = error.what();
    if (!contains(message, std::to_string(parent)) ||
        !contains(message, std::to_string(::getpid())) || !contains(message, "spawn semantics")) {
      return message_lacks_a_detail;
    }
  } catch (...) {
    return wrong_exception_type;
  }
  try {
    const stream on;
    return stream_not_refused;
  } catch (const cuda_used_after_fork&) {
  } catch (...) {
    return wrong_exception_type;
  }
  const auto gpus = gpu_count();
  if (gpus.count != 0 || !contains(gpus.reason, "forked")) return gpus_still_counted;
  return refused_by_name;
}

TEST(ForkGuardGpu, ChildOfACudaParentIsRefusedByName) {
  HANDOFF_REQUIRE_GPUS(1);
  const device_buffer<float> parents(1024);  // CUDA is now initialised in this process
  ASSERT_FALSE(forked_after_cuda_initialisation());
  const pid_t parent = ::getpid();
  const auto outcome =
      test_support::run_in_forked_child([parent] { return verdict_in_child(parent); });
  EXPECT_TRUE(outcome.exited) << outcome.description;
  EXPECT_EQ(outcome.code, refused_by_name) << outcome.description;
  // The parent keeps working.
  EXPECT_NO_THROW(device_buffer<float>(16));
  EXPECT_FALSE(forked_after_cuda_initialisation());
}

}  // namespace
}  // namespace handoff
