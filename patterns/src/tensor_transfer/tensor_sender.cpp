#include "handoff/patterns/tensor_transfer/tensor_sender.hpp"

#include <stdexcept>
#include <string>

#include "handoff/patterns/tensor_transfer/transfer_protocol.hpp"
#include "handoff/wall_clock.hpp"
#include "receiver_replies.hpp"

namespace handoff::patterns {

using transport::connection;

tensor_sender::tensor_sender(const transfer_setup& setup)
    : setup_(setup),
      pool_("tensor_receiver", 1, {.role = std::string(tensor_receiver_role)}),
      source_(make_tensor(setup.bytes, setup.on_device)) {
  if (setup_.variant == nullptr) throw std::invalid_argument("a tensor_sender needs a variant");
  source_->fill_seeded(setup_.seed);
  send_command({.command = receiver_command::prepare,
                .on_device = setup_.on_device ? 1U : 0U,
                .bytes = setup_.bytes});
  await_reply();
}

tensor_sender::~tensor_sender() = default;

transport::deadline_clock::time_point tensor_sender::deadline() const {
  return transport::deadline_clock::now() + setup_.patience;
}

void tensor_sender::send_command(const command_record& command) {
  pool_.with_worker(0, [&](connection& control) { control.send_record(command, deadline()); });
}

reply_record tensor_sender::await_reply() {
  const auto reply = pool_.with_worker(
      0, [&](connection& control) { return control.receive_record<reply_record>(deadline()); });
  check_reply(reply, setup_.variant->name, pool_.worker_name(0));
  return reply;
}

void tensor_sender::poison_destination() {
  send_command({.command = receiver_command::poison});
  await_reply();
}

void tensor_sender::open_session(sender_session& session, connection& control) {
  command_record announce{.command = receiver_command::open_session};
  announce.set_variant(setup_.variant->name);
  session.open(control, announce, deadline());
}

run_result tensor_sender::timed_transfer(sender_session& session, bool open_first) {
  const transport::peer_watch watch = [this] { pool_.check_alive(); };
  run_result result;
  const auto start = wall_clock::now();
  pool_.with_worker(0, [&](connection& control) {
    // One write for the whole request where it is all records, rather than a write per record and
    // a read of each at the other end. With the connection's one-read records and its spin on
    // recv, this made vmm_fd's warm 4 MiB hand-off faster beyond the noise (figures:
    // docs/design/measured-along-the-way.md, "One write for a tensor_transfer request").
    if (session.sends_on_control_only()) control.hold_sends();
    if (open_first) open_session(session, control);
    control.send_record(command_record{.command = receiver_command::receive}, deadline());
    session.send(control, *source_, result.stages, deadline(), watch);
    control.send_held(deadline());
    return 0;
  });
  const auto reply = await_reply();
  result.seconds = seconds_since(start);
  result.stages += reply.stages;
  return result;
}

void tensor_sender::close_session(std::unique_ptr<sender_session>& session) {
  if (!session) return;
  send_command({.command = receiver_command::close_session});
  await_reply();
  session.reset();
}

run_result tensor_sender::transfer_warm() {
  if (!warm_session_) {
    auto session = setup_.variant->specifics.make_sender(*source_);
    pool_.with_worker(0, [&](connection& control) {
      open_session(*session, control);
      return 0;
    });
    warm_session_ = std::move(session);
  }
  return timed_transfer(*warm_session_, false);
}

run_result tensor_sender::transfer_cold() {
  close_session(warm_session_);
  auto session = setup_.variant->specifics.make_sender(*source_);
  const auto result = timed_transfer(*session, true);
  close_session(session);
  return result;
}

reference::verification_result tensor_sender::verify_against_seed(std::uint64_t seed) {
  send_command({.command = receiver_command::verify, .seed = seed});
  return verification_of(await_reply(), setup_.bytes, pool_.worker_name(0));
}

void tensor_sender::shutdown() {
  close_session(warm_session_);
  pool_.shutdown_expecting_success(setup_.patience);
}

}  // namespace handoff::patterns
