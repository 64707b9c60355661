#pragma once
// Process A of a tensor transfer: it owns the source tensor, starts process B (a tensor_receiver
// worker) and moves the tensor to it through one variant. Cold transfers open a fresh channel
// inside the timing (channel set-up, descriptor passing, registration and handle opening); warm
// transfers reuse one. Every blocking wait has a deadline, and a dead receiver is worker_died.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <memory>

#include "handoff/patterns/run_result.hpp"
#include "handoff/patterns/tensor_transfer/transfer_case.hpp"
#include "handoff/reference/verify.hpp"
#include "handoff/transport/process/worker_pool.hpp"

namespace handoff::patterns {

struct transfer_setup {
  const transfer_row* variant = nullptr;
  std::size_t bytes = 0;  // a whole number of floats
  bool on_device = true;
  std::uint64_t seed = transfer_seed;
  std::chrono::milliseconds patience = std::chrono::seconds(60);  // per blocking step
};

class tensor_sender {
 public:
  explicit tensor_sender(const transfer_setup& setup);
  ~tensor_sender();

  // seconds: the wall clock from before the first byte moves to the receiver's reply.
  run_result transfer_warm();  // opens the channel the first time, untimed
  run_result transfer_cold();  // a fresh channel, opened inside the timing and closed after
  void poison_destination();
  // B compares what it holds, bit for bit, with seed's pattern.
  reference::verification_result verify_against_seed(std::uint64_t seed);

  pid_t receiver_pid() const { return pool_.worker_pid(0); }
  // Closes the channel and waits for the receiver to exit cleanly.
  void shutdown();

 private:
  transport::deadline_clock::time_point deadline() const;
  void send_command(const command_record& command);
  reply_record await_reply();
  run_result timed_transfer(sender_session& session, bool open_first);
  void open_session(sender_session& session, transport::connection& control);
  void close_session(std::unique_ptr<sender_session>& session);

  transfer_setup setup_;
  transport::worker_pool pool_;
  std::unique_ptr<tensor_memory> source_;
  std::unique_ptr<sender_session> warm_session_;
};

}  // namespace handoff::patterns
