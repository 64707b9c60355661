// The context switches of a row's processes (context_switches.hpp): the kernel's texts read, and a
// child's sleeps counted while it lives and after it has been reaped.

#include "harness/context_switches.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>

namespace handoff::bench {
namespace {

TEST(ContextSwitches, BothCountsAreReadFromAThreadsStatus) {
  const auto counts = parse_status_switches(
      "Name:\tworker\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t1234\n"
      "nonvoluntary_ctxt_switches:\t56\n");
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(counts->voluntary, 1234u);
  EXPECT_EQ(counts->involuntary, 56u);
  const auto swapped =
      parse_status_switches("nonvoluntary_ctxt_switches:\t7\nvoluntary_ctxt_switches:\t9\n");
  ASSERT_TRUE(swapped.has_value());
  EXPECT_EQ(swapped->voluntary, 9u) << "the longer label's tail is not the voluntary line";
  EXPECT_EQ(swapped->involuntary, 7u);
}

TEST(ContextSwitches, AStatusWithoutBothCountsIsRefused) {
  EXPECT_FALSE(parse_status_switches("voluntary_ctxt_switches:\t3\n").has_value());
  EXPECT_FALSE(parse_status_switches("nonvoluntary_ctxt_switches:\t3\n").has_value());
  EXPECT_FALSE(parse_status_switches("voluntary_ctxt_switches:\tmany\n"
                                     "nonvoluntary_ctxt_switches:\t3\n")
                   .has_value());
  EXPECT_FALSE(parse_status_switches("").has_value());
}

TEST(ContextSwitches, TheParentIsReadPastACommandWithSpacesAndParentheses) {
  EXPECT_EQ(parse_stat_parent("4321 (handoff (x) y) S 77 4321 4321 0 -1 4194560"), 77);
  EXPECT_EQ(parse_stat_parent("1 (init) S 0 1 1 0 -1"), 0);
  EXPECT_FALSE(parse_stat_parent("4321 handoff S 77").has_value());
  EXPECT_FALSE(parse_stat_parent("4321 (handoff) S").has_value());
  EXPECT_FALSE(parse_stat_parent("4321 (handoff) S x 1").has_value());
}

constexpr int child_sleeps = 20;

// A child that sleeps child_sleeps times, says so, and waits to be told to end.
class sleeping_child {
 public:
  sleeping_child() {
    if (pipe(said_) != 0 || pipe(told_) != 0) return;
    id_ = fork();
    if (id_ == 0) {
      const timespec millisecond{0, 1'000'000};
      for (int sleep = 0; sleep < child_sleeps; ++sleep)
        nanosleep(&millisecond, nullptr);
      char done = 'd';
      if (write(said_[1], &done, 1) != 1) _exit(1);
      char end = 0;
      _exit(read(told_[0], &end, 1) == 1 ? 0 : 1);
    }
  }
  sleeping_child(const sleeping_child&) = delete;
  sleeping_child& operator=(const sleeping_child&) = delete;
  ~sleeping_child() {
    if (id_ > 0 && !reaped_) reap();
    for (const int descriptor : {said_[0], said_[1], told_[0], told_[1]})
      if (descriptor >= 0) close(descriptor);
  }

  bool started() const { return id_ > 0; }
  bool slept() {
    char done = 0;
    return read(said_[0], &done, 1) == 1;
  }
  // Tells it to end and waits for it: true when it ended as it should.
  bool reap() {
    char end = 'e';
    reaped_ = true;
    int status = 0;
    return write(told_[1], &end, 1) == 1 && waitpid(id_, &status, 0) == id_ && WIFEXITED(status) &&
           WEXITSTATUS(status) == 0;
  }

 private:
  int said_[2] = {-1, -1};
  int told_[2] = {-1, -1};
  pid_t id_ = -1;
  bool reaped_ = false;
};

TEST(ContextSwitches, AChildsSleepsCountWhileItLivesAndOnceReaped) {
  const auto before = read_process_tree_switches();
  ASSERT_TRUE(before.has_value()) << "Linux has /proc and getrusage";
  sleeping_child child;
  ASSERT_TRUE(child.started());
  ASSERT_TRUE(child.slept());
  const auto during = read_process_tree_switches();
  ASSERT_TRUE(child.reap());
  const auto after = read_process_tree_switches();
  ASSERT_TRUE(during.has_value());
  ASSERT_TRUE(after.has_value());
  EXPECT_GE(during->voluntary - before->voluntary, static_cast<std::uint64_t>(child_sleeps))
      << "a live child's threads are read from /proc";
  EXPECT_GE(after->voluntary, during->voluntary) << "a reaped child stays in the sum";
}

TEST(ContextSwitches, PerRunDividesTheSwitchesSinceConstruction) {
  const switches_while_sampling sampling;
  EXPECT_FALSE(sampling.per_run(0).has_value()) << "no runs, no rate";
  sleeping_child child;
  ASSERT_TRUE(child.started());
  ASSERT_TRUE(child.slept());
  ASSERT_TRUE(child.reap());
  const auto per_run = sampling.per_run(4);
  ASSERT_TRUE(per_run.has_value());
  EXPECT_GE(per_run->voluntary, child_sleeps / 4.0);
}

}  // namespace
}  // namespace handoff::bench
