#include "handoff/patterns/tensor_transfer/tensor_receiver.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <memory>
#include <stdexcept>

#include "handoff/patterns/tensor_transfer/variants.hpp"
#include "handoff/transport/process/worker_pool.hpp"

namespace handoff::patterns {

using transport::deadline_clock;

namespace {

// A receiver must not outlive its coordinator: a killed sender would otherwise leave it waiting on
// a channel that no one will ever write to.
transport::peer_watch watch_parent() {
  const pid_t parent = ::getppid();
  return [parent] {
    if (::getppid() != parent) {
      throw transport::channel_closed("the tensor sender (pid " + std::to_string(parent) +
                                      ") has died");
    }
  };
}

class receiver_loop {
 public:
  receiver_loop() : control_(transport::coordinator_connection()), watch_(watch_parent()) {}

  int run() {
    while (true) {
      command_record command;
      try {
        command =
            control_.receive_record<command_record>(deadline_clock::now() + receiver_idle_limit);
      } catch (const transport::channel_closed&) {
        return 0;  // the coordinator is done with this receiver
      }
      const auto deadline = deadline_clock::now() + receiver_idle_limit;
      reply_record reply;
      reply.ok = 1;
      try {
        if (!execute(command, reply, deadline)) continue;  // open_session sends no reply
      } catch (const std::exception& error) {
        reply.set_error(error.what());
      }
      control_.send_record(reply, deadline);
    }
  }

 private:
  // Returns whether the command expects a reply.
  bool execute(const command_record& command, reply_record& reply,
               deadline_clock::time_point deadline) {
    switch (command.command) {
      case receiver_command::prepare:
        destination_ = make_tensor(command.bytes, command.on_device != 0);
        destination_->poison();
        return true;
      case receiver_command::poison:
        require_destination().poison();
        return true;
      case receiver_command::open_session:
        // Any failure here is held back and reported by the receive that follows, since the
        // coordinator does not wait for a reply it would have to pay for in every cold transfer.
        session_error_.clear();
        session_.reset();
        try {
          session_ = find_transfer_variant(command.variant_name())
                         .specifics.open_receiver(command, control_, deadline);
        } catch (const std::exception& error) {
          session_error_ = error.what();
        }
        return false;
      case receiver_command::receive:
        if (!session_error_.empty())
          throw std::runtime_error("opening the session: " + session_error_);
        if (!session_) throw std::logic_error("receive without an open session");
        session_->receive(control_, require_destination(), reply.stages, deadline, watch_);
        return true;
      case receiver_command::verify: {
        const auto result = require_destination().verify_seeded(command.seed);
        reply.checked = result.checked;
        reply.mismatches = result.mismatches;
        if (result.first) {
          reply.has_first_mismatch = 1;
          reply.first_mismatch = result.first->index;
          reply.first_expected = result.first->expected;
          reply.first_actual = result.first->actual;
        }
        return true;
      }
      case receiver_command::close_session:
        session_.reset();
        session_error_.clear();
        return true;
    }
    throw std::invalid_argument("unknown receiver command " +
                                std::to_string(static_cast<std::uint32_t>(command.command)));
  }

  tensor_memory& require_destination() {
    if (!destination_) throw std::logic_error("no destination tensor: prepare was never sent");
    return *destination_;
  }

  transport::connection control_;
  transport::peer_watch watch_;
  std::unique_ptr<tensor_memory> destination_;
  std::unique_ptr<receiver_session> session_;
  std::string session_error_;
};

}  // namespace

int run_tensor_receiver(std::span<const std::string>) {
  receiver_loop loop;
  return loop.run();
}

}  // namespace handoff::patterns
