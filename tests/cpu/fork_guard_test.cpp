// The fork guard's bookkeeping, without a GPU: this process notes CUDA as initialised (it never
// really initialises it, which is harmless here), then forks, and the child must be refused by
// name.

#include "handoff/fork_guard.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "support/forked_child.hpp"

namespace handoff {
namespace {

// Exit codes a forked child reports its verdict with.
enum child_verdict : int {
  refused_by_name = 0,
  nothing_thrown = 1,
  message_lacks_a_detail = 2,
  wrong_exception_type = 3,
  not_marked_as_forked = 4,
  wrong_pids = 5,
  wrong_code = 6,
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// What the message of a refusal must say: who forked whom, and what to do instead.
bool names_processes_and_remedy(const cuda_used_after_fork& error, pid_t parent) {
  const std::string message = error.what();
  return contains(message, "process " + std::to_string(::getpid())) &&
         contains(message, "process " + std::to_string(parent)) &&
         contains(message, "spawn semantics") && contains(message, "not with fork");
}

TEST(ForkGuard, TheProcessThatInitialisedCudaMayUseIt) {
  note_cuda_initialised_in_this_process();
  note_cuda_initialised_in_this_process();  // noting twice is harmless
  EXPECT_FALSE(forked_after_cuda_initialisation());
  EXPECT_NO_THROW(require_cuda_usable_in_this_process());
}

TEST(ForkGuard, AForkedChildIsRefusedWithTheParentAndChildNamed) {
  note_cuda_initialised_in_this_process();
  const pid_t parent = ::getpid();
  const auto outcome = test_support::run_in_forked_child([parent]() -> int {
    if (!forked_after_cuda_initialisation()) return not_marked_as_forked;
    try {
      require_cuda_usable_in_this_process();
      return nothing_thrown;
    } catch (const cuda_used_after_fork& error) {
      if (error.cuda_parent() != parent || error.child() != ::getpid()) return wrong_pids;
      return names_processes_and_remedy(error, parent) ? refused_by_name : message_lacks_a_detail;
    } catch (...) {
      return wrong_exception_type;
    }
  });
  EXPECT_TRUE(outcome.exited) << outcome.description;
  EXPECT_EQ(outcome.code, refused_by_name) << outcome.description;
  // The fork marks only the child.
  EXPECT_FALSE(forked_after_cuda_initialisation());
}

TEST(ForkGuard, AGrandchildIsRefusedWithTheCudaProcessNamed) {
  note_cuda_initialised_in_this_process();
  const pid_t cuda_process = ::getpid();
  const auto outcome = test_support::run_in_forked_child([cuda_process]() -> int {
    const auto inner = test_support::run_in_forked_child([cuda_process]() -> int {
      try {
        require_cuda_usable_in_this_process();
        return nothing_thrown;
      } catch (const cuda_used_after_fork& error) {
        return error.cuda_parent() == cuda_process ? refused_by_name : wrong_pids;
      }
    });
    return inner.exited ? inner.code : wrong_exception_type;
  });
  EXPECT_EQ(outcome.code, refused_by_name) << outcome.description;
}

TEST(ForkGuard, AFailedCudaCheckInAForkedChildBlamesTheFork) {
  note_cuda_initialised_in_this_process();
  const pid_t parent = ::getpid();
  const auto outcome = test_support::run_in_forked_child([parent]() -> int {
    try {
      HANDOFF_CUDA_CHECK(cudaErrorInitializationError);
      return nothing_thrown;
    } catch (const cuda_used_after_fork& error) {
      if (error.code() != static_cast<int>(cudaErrorInitializationError)) return wrong_code;
      if (!contains(error.what(), "cudaErrorInitializationError")) return message_lacks_a_detail;
      return names_processes_and_remedy(error, parent) ? refused_by_name : message_lacks_a_detail;
    } catch (...) {
      return wrong_exception_type;
    }
  });
  EXPECT_EQ(outcome.code, refused_by_name) << outcome.description;
}

}  // namespace
}  // namespace handoff
