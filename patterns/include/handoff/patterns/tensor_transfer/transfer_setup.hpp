#pragma once
// What every tensor_transfer row shares: one session for all (process B kept up, the variant's
// channel through it), and the same clocks. Each variant's file defines its row
// (transfer_case.hpp), whose setup is set_up_transfer of that row.

#include <memory>

#include "handoff/patterns/tensor_transfer/transfer_case.hpp"

namespace handoff::patterns {

// Starts process B and prepares the source and destination tensors; the session keeps B up for
// warm transfers (its channel open) and cold ones (its channel reopened each time).
std::unique_ptr<session<transfer_case>> start_transfer(const transfer_row& variant,
                                                       const transfer_point& at,
                                                       compute_target target);

// A row's setup: start_transfer for the variant that holds the row.
template <const transfer_row& variant>
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
