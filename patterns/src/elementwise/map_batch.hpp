#pragma once
// A map worker's side of one batch: the set-up message (the workload, and W and b for affine),
// checked, then each task computed. Every field comes from the coordinator's message and is
// checked before it is used; anything malformed is process_error. Host code only, so that
// fuzz/map_message_fuzzer.cpp drives it as the worker does.

#include <cstddef>
#include <optional>
#include <vector>

#include "handoff/patterns/elementwise/extended_problem.hpp"
#include "map_protocol.hpp"

namespace handoff::patterns::elementwise {

class map_batch {
 public:
  // Takes one message from the coordinator: a begin_batch sets the batch up (nothing to answer),
  // a task is answered with its result; any other kind is process_error.
  std::optional<std::vector<float>> take(const map_protocol::parsed& message);

 private:
  // A begin_batch message: a workload, and for affine the order n (1 to max_map_order) in the
  // header's index and W and b (n * n + n floats).
  void begin(const map_protocol::parsed& message);
  // A task message of the batch's workload: its result, one float or (affine) a column of n.
  std::vector<float> compute(const map_protocol::parsed& message) const;

  bool begun_ = false;
  extended_workload workload_ = extended_workload::square;
  std::size_t n_ = 0;
  std::vector<float> w_, bias_;
};

}  // namespace handoff::patterns::elementwise
