#pragma once
// tensor_transfer (seed 003): a tensor in process A moved to process B, which verifies it bit for
// bit. Device tensors (the family tensor_transfer/device) go through all six variants; the
// host-path variants also run from CPU tensor to CPU tensor (tensor_transfer/host), so machines
// without a GPU (CI) exercise the same orchestration. Each size has a cold figure (a fresh
// channel: set-up, descriptor passing, registration, handle opening) and a warm one (the channel
// already open). Process start is not in either: it is its own ceiling.

#include "handoff/patterns/pattern_benchmarks.hpp"
#include "handoff/patterns/tensor_transfer/variants.hpp"

namespace handoff::patterns {

const pattern_benchmarks<transfer_point, transfer_case, transfer_channel>&
tensor_transfer_benchmarks();

}  // namespace handoff::patterns
