#pragma once
// One tensor_transfer variant, whole: its benchmark row (name, targets, clocks, set-up, floor) and
// the two sides of its channel. Process A makes the sender side for every session; process B,
// told the variant's name by the open_session command, opens the receiving side through the
// table (variants.hpp). Each variant's file defines one of these.

#include <memory>

#include "handoff/patterns/tensor_transfer/transfer_case.hpp"
#include "handoff/patterns/tensor_transfer/transfer_session.hpp"

namespace handoff::patterns {

struct transfer_variant {
  transfer_row row;
  // Untimed: for the zero-copy variants the source must live in memory they can share, so the
  // sender copies it there now.
  std::unique_ptr<sender_session> (*make_sender)(const tensor_memory& source) = nullptr;
  // Takes the descriptors that follow the open_session command.
  std::unique_ptr<receiver_session> (*open_receiver)(
      const command_record& command, transport::connection& control,
      transport::deadline_clock::time_point deadline) = nullptr;
};

// Starts process B and prepares the source and destination tensors; the session keeps B up for
// warm transfers (its channel open) and cold ones (its channel reopened each time).
std::unique_ptr<session<transfer_case>> start_transfer(const transfer_variant& variant,
                                                       const transfer_point& at,
                                                       compute_target target);

// A row's setup: start_transfer for the variant that holds the row.
template <const transfer_variant& variant>
std::unique_ptr<session<transfer_case>> set_up_transfer(const transfer_point& at,
                                                        compute_target target) {
  return start_transfer(variant, at, target);
}

// Every transfer variant is timed by itself (A's wall clock from before the first byte moves to
// B's reply: only A sees both ends) and its cold figure reopens the channel to a B that stays up
// (process start is a ceiling of its own).
inline constexpr clock_kind transfer_clock = clock_kind::self;
inline constexpr cold_kind transfer_cold = cold_kind::reopen;
inline constexpr runs_on device_and_host{.device = true, .host_stand_in = true};
inline constexpr runs_on device_only{.device = true};

}  // namespace handoff::patterns
