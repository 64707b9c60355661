#pragma once
// OpenBLAS, loaded on first use with dlopen rather than linked. As it loads, OpenBLAS starts a
// thread for every core but one, and each spins in sched_yield for a while before it sleeps.
// Linked, it did so in every process this executable starts: each spawned worker of every pattern
// brought a spinning thread for nearly every core onto the machine just as its pool began to be
// measured, and how much of a row's samples they overlapped differed from process to process.
// Loaded here, only a process that runs the cpu_blas variant starts them.

#include <cblas.h>
#include <sys/types.h>

#include <chrono>
#include <stdexcept>
#include <vector>

namespace handoff::patterns::elementwise {

class openblas_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct openblas_library {
  decltype(&cblas_sgemm) sgemm;
  // The threads that appeared in this process as the library loaded: its own.
  std::vector<pid_t> threads;

  // Returns once none of its threads is running, or after `limit`: whether they all sleep. They
  // spin on for a while after each call, so a process that goes on to measure anything else
  // first waits for them (elementwise_cpu_blas's destructor).
  bool wait_until_asleep(std::chrono::milliseconds limit) const;
};

// Loads libopenblas.so.0 once per process, where the loader finds it or else in the directory CMake
// found OpenBLAS in; a library that cannot be loaded, or lacks a function, is openblas_error
// naming it.
const openblas_library& openblas();

}  // namespace handoff::patterns::elementwise
