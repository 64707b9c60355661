#include "handoff/patterns/tensor_transfer/tensor_sender.hpp"

#include <string>

#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"

namespace handoff::patterns {

tensor_sender::tensor_sender(const transfer_setup& setup)
    : setup_(setup),
      pool_("tensor_receiver", 1, {.role = std::string(tensor_receiver_role)}),
      source_(make_tensor(setup.bytes, setup.on_device)) {
  source_->fill_seeded(setup_.seed);
  send_command({.command = receiver_command::prepare,
                .variant = setup_.variant,
                .on_device = setup_.on_device ? 1U : 0U,
                .bytes = setup_.bytes});
  await_reply();
}

tensor_sender::~tensor_sender() = default;

deadline_clock::time_point tensor_sender::deadline() const {
  return deadline_clock::now() + setup_.patience;
}

void tensor_sender::send_command(const command_record& command) {
  pool_.with_worker(0, [&](connection& control) { control.send_record(command, deadline()); });
}

reply_record tensor_sender::await_reply() {
  const auto reply = pool_.with_worker(
      0, [&](connection& control) { return control.receive_record<reply_record>(deadline()); });
  if (reply.ok == 0) {
    throw transfer_failed(std::string(variant_name(setup_.variant)) + " receiver " +
                          pool_.worker_name(0) + ": " + std::string(reply.error_text()));
  }
  return reply;
}

void tensor_sender::poison_destination() {
  send_command({.command = receiver_command::poison});
  await_reply();
}

transfer_result tensor_sender::timed_transfer(sender_session& session, bool open_first) {
  const peer_watch watch = [this] { pool_.check_alive(); };
  transfer_result result;
  const auto start = deadline_clock::now();
  pool_.with_worker(0, [&](connection& control) {
    if (open_first) session.open(control, deadline());
    control.send_record(command_record{.command = receiver_command::receive}, deadline());
    session.send(control, *source_, result.stages, deadline(), watch);
    return 0;
  });
  const auto reply = await_reply();
  result.seconds = std::chrono::duration<double>(deadline_clock::now() - start).count();
  result.stages += reply.stages;
  return result;
}

void tensor_sender::close_session(std::unique_ptr<sender_session>& session) {
  if (!session) return;
  send_command({.command = receiver_command::close_session});
  await_reply();
  session.reset();
}

transfer_result tensor_sender::transfer_warm() {
  poison_destination();
  if (!warm_session_) {
    auto session = make_sender_session(setup_.variant, *source_);
    pool_.with_worker(0, [&](connection& control) {
      session->open(control, deadline());
      return 0;
    });
    warm_session_ = std::move(session);
  }
  return timed_transfer(*warm_session_, false);
}

transfer_result tensor_sender::transfer_cold() {
  close_session(warm_session_);
  poison_destination();
  auto session = make_sender_session(setup_.variant, *source_);
  const auto result = timed_transfer(*session, true);
  close_session(session);
  return result;
}

reference::verification_result tensor_sender::verify() {
  return verify_against_seed(setup_.seed);
}

reference::verification_result tensor_sender::verify_against_seed(std::uint64_t seed) {
  send_command({.command = receiver_command::verify, .seed = seed});
  const auto reply = await_reply();
  reference::verification_result result;
  result.checked = reply.checked;
  result.mismatches = reply.mismatches;
  if (reply.has_first_mismatch != 0) {
    result.first = reference::first_mismatch{.index = reply.first_mismatch,
                                             .expected = reply.first_expected,
                                             .actual = reply.first_actual};
  }
  return result;
}

void tensor_sender::shutdown() {
  close_session(warm_session_);
  pool_.shutdown_expecting_success(setup_.patience);
}

}  // namespace handoff::patterns
