#pragma once
// A pool whose batch failed part-way (a deadline, a malformed reply) still has requests in flight
// and replies queued on its channels, which a later batch would read as its own. So once a batch
// fails, and once the pool is shut down, every later batch is refused with a typed error rather
// than a wrong result or an index into channels that are gone.

#include <string>
#include <utility>

#include "handoff/transport/process_errors.hpp"

namespace handoff::transport {

class pool_unusable : public process_error {
 public:
  using process_error::process_error;
};

class batch_latch {
 public:
  explicit batch_latch(std::string pool) : pool_(std::move(pool)) {}

  // Runs one batch; its failure closes the latch, and a closed latch is pool_unusable.
  template <class Batch>
  decltype(auto) run(Batch&& batch) {
    if (!closed_because_.empty()) throw pool_unusable("pool " + pool_ + ": " + closed_because_);
    try {
      return batch();
    } catch (...) {
      closed_because_ = "an earlier batch failed, so it takes no more";
      throw;
    }
  }
  void close_for_shutdown() { closed_because_ = "it was shut down"; }

 private:
  std::string pool_;
  std::string closed_because_;
};

}  // namespace handoff::transport
