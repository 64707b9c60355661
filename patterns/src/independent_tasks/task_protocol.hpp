#pragma once
// The messages between independent_tasks' coordinator and its workers. A worker announces that it
// is ready (its context created) once; then each task is a header and the dataset by value, as
// multiprocessing.Pool pickles its argument into the worker's pipe, and each reply is one record
// with the sum and the worker's own stage times. Every field that arrives is checked: the input
// crosses a process boundary.

#include <cstdint>

namespace handoff::patterns::independent_tasks {

inline constexpr std::uint32_t protocol_magic = 0x31544B49;  // "IKT1"

// 2^28 floats, 1 GiB: no dataset the suite sends comes near it, and no worker allocates more.
inline constexpr std::uint64_t max_task_elements = std::uint64_t{1} << 28;

struct worker_ready {
  std::uint32_t magic = protocol_magic;
  std::uint32_t reserved = 0;
};

struct task_header {
  std::uint32_t magic = protocol_magic;
  std::uint32_t reserved = 0;
  std::uint64_t task = 0;
  std::uint64_t elements = 0;
};

struct task_reply {
  std::uint32_t magic = protocol_magic;
  std::uint32_t reserved = 0;
  std::uint64_t task = 0;
  float sum = 0.0f;
  float unused = 0.0f;
  double deserialize = 0;
  double h2d = 0;
  double kernel = 0;
  double d2h = 0;
};

}  // namespace handoff::patterns::independent_tasks
