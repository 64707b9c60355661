#pragma once
// Process B of a tensor transfer: the worker role that takes commands from its coordinator and
// receives tensors through whichever variant's session the coordinator opens. Executables that
// run transfers register it with HANDOFF_WORKER_ROLE(tensor_receiver_role, run_tensor_receiver).

#include <span>
#include <string>

namespace handoff::patterns {

int run_tensor_receiver(std::span<const std::string> arguments);

}  // namespace handoff::patterns
