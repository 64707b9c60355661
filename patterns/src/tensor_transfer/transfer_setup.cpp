// Every tensor_transfer variant runs as the same session: process A (this one) holds a
// tensor_sender, which keeps process B up for as long as the session lives. A warm run reuses the
// variant's channel; a cold run reopens it inside the timing. Both time themselves (only A sees
// both ends), from before the first byte moves to B's reply.

#include "handoff/patterns/tensor_transfer/transfer_setup.hpp"

#include <stdexcept>
#include <string>

#include "handoff/patterns/tensor_transfer/tensor_sender.hpp"

namespace handoff::patterns {
namespace {

class transfer_session final : public session<transfer_case> {
 public:
  transfer_session(const transfer_row& variant, const transfer_point& at, compute_target target)
      : sender_({.variant = &variant,
                 .bytes = at.bytes,
                 .on_device = target == compute_target::device}) {}

  run_result run(transfer_case&) override { return sender_.transfer_warm(); }
  run_result run_cold(transfer_case&) override { return sender_.transfer_cold(); }

  // The destination lives in process B: it poisons and checks it there.
  void poison(transfer_case&) override { sender_.poison_destination(); }
  reference::verification_result verify(const transfer_case& work) const override {
    return sender_.verify_against_seed(work.seed);
  }

  std::vector<pid_t> peers() const override { return {sender_.receiver_pid()}; }
  void shutdown() override { sender_.shutdown(); }

 private:
  // verify() is const for the driver, yet asking B is a round trip on the control connection.
  mutable tensor_sender sender_;
};

}  // namespace

std::unique_ptr<transfer_case> make_transfer_case(const transfer_point& at) {
  return std::make_unique<transfer_case>(transfer_case{.bytes = at.bytes});
}

std::unique_ptr<session<transfer_case>> start_transfer(const transfer_row& variant,
                                                       const transfer_point& at,
                                                       compute_target target) {
  if (!variant.targets.supports(target)) {
    throw std::invalid_argument(std::string(variant.name) + " cannot run on " +
                                std::string(compute_target_name(target)) +
                                (variant.targets.device ? ": it moves device tensors only" : ""));
  }
  return std::make_unique<transfer_session>(variant, at, target);
}

}  // namespace handoff::patterns
