// The session every queued_worker row sets up: a worker_session of its variant, up and ready for
// batches. The session times itself (the producer's wall clock around the batch) and reports the
// stages the producer and the worker timed; a cold point's one run also stops and joins the worker.

#include <unistd.h>

#include <algorithm>
#include <string>

#include "declared_variants.hpp"

namespace handoff::patterns::queued_worker {
namespace {

class batch_session final : public session<item_batch> {
 public:
  batch_session(const worker_setup& setup, bool stop_after_run)
      : worker_(setup), stop_after_run_(stop_after_run) {}

  run_result run(item_batch& work) override {
    return stop_after_run_ ? worker_.run_last_batch(work.items(), work.outputs())
                           : worker_.run_batch(work.items(), work.outputs());
  }
  std::vector<pid_t> peers() const override { return {worker_.worker_pid()}; }
  // A cold run already joined its worker, and a broken session's is killed with it.
  void shutdown() override {
    if (!worker_.finished()) worker_.shutdown();
  }

 private:
  worker_session worker_;
  bool stop_after_run_;
};

}  // namespace

std::unique_ptr<session<item_batch>> set_up_batch_session(std::string_view variant, const point& at,
                                                          compute_target target) {
  // The pid keeps the segments of concurrent programs apart, for their leak checks.
  const worker_setup setup{
      .variant = std::string(variant),
      .target = target,
      .max_item_elements = std::max<std::size_t>(1, at.elements),
      .slot_count = 4,
      .purpose = "queued-worker-" + std::string(variant) + "-" + std::to_string(::getpid())};
  return std::make_unique<batch_session>(setup, at.stop_after_run);
}

}  // namespace handoff::patterns::queued_worker
