// The context switches of a row's processes (context_switches.hpp): the kernel's texts read, every
// thread of a process summed, and the sleeps of this process's threads, of a live grandchild and
// of a reaped child counted in a window.

#include "harness/context_switches.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ctime>
#include <latch>
#include <thread>

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

constexpr int sleeps = 20;

void sleep_a_millisecond_each_time() {
  const timespec millisecond{0, 1'000'000};
  for (int sleep = 0; sleep < sleeps; ++sleep)
    nanosleep(&millisecond, nullptr);
}

// A descendant that sleeps `sleeps` times, says so, and waits to be told to end: the child itself,
// or (two generations) a grandchild whose parent waits for it.
class sleeping_descendant {
 public:
  explicit sleeping_descendant(int generations) {
    if (pipe(said_) != 0 || pipe(told_) != 0) return;
    id_ = fork();
    if (id_ != 0) return;
    if (generations == 2) {
      const pid_t grandchild = fork();
      if (grandchild != 0) {
        int status = 0;
        _exit(grandchild > 0 && waitpid(grandchild, &status, 0) == grandchild ? status : 1);
      }
    }
    sleep_a_millisecond_each_time();
    char done = 'd';
    if (write(said_[1], &done, 1) != 1) _exit(1);
    char end = 0;
    _exit(read(told_[0], &end, 1) == 1 ? 0 : 1);
  }
  sleeping_descendant(const sleeping_descendant&) = delete;
  sleeping_descendant& operator=(const sleeping_descendant&) = delete;
  ~sleeping_descendant() {
    if (id_ > 0 && !reaped_) reap();
    for (const int descriptor : {said_[0], said_[1], told_[0], told_[1]})
      if (descriptor >= 0) close(descriptor);
  }

  bool started() const { return id_ > 0; }
  bool slept() {
    char done = 0;
    return read(said_[0], &done, 1) == 1;
  }
  // Tells it to end and waits for the child: true when everything ended as it should.
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

TEST(ContextSwitches, EveryLiveThreadOfAProcessIsSummed) {
  const auto before = switches_of_every_thread(getpid());
  std::latch slept(1);
  std::latch may_end(1);
  std::thread sleeper([&] {
    sleep_a_millisecond_each_time();
    slept.count_down();
    may_end.wait();
  });
  slept.wait();
  const auto during = switches_of_every_thread(getpid());
  may_end.count_down();
  sleeper.join();
  EXPECT_GE(during.voluntary, before.voluntary + sleeps)
      << "a thread other than the first is read from its own status";
}

TEST(ContextSwitches, TheWindowCountsOwnThreadsAndLiveDescendantsOfEveryGeneration) {
  const switches_while_running window;
  std::thread own_sleeper(sleep_a_millisecond_each_time);
  own_sleeper.join();
  sleeping_descendant grandchild(2);
  ASSERT_TRUE(grandchild.started());
  ASSERT_TRUE(grandchild.slept());
  const auto while_alive = window.per_run(1);
  ASSERT_TRUE(grandchild.reap());
  ASSERT_TRUE(while_alive.has_value()) << "Linux has /proc and getrusage";
  EXPECT_GE(while_alive->voluntary, 2.0 * sleeps)
      << "this process's ended thread and a live grandchild both count";
}

TEST(ContextSwitches, AChildReapedInsideTheWindowStaysInIt) {
  const switches_while_running window;
  EXPECT_FALSE(window.per_run(0).has_value()) << "no runs, no rate";
  sleeping_descendant child(1);
  ASSERT_TRUE(child.started());
  ASSERT_TRUE(child.slept());
  ASSERT_TRUE(child.reap());
  const auto per_run = window.per_run(4);
  ASSERT_TRUE(per_run.has_value());
  EXPECT_GE(per_run->voluntary, sleeps / 4.0);
}

}  // namespace
}  // namespace handoff::bench
