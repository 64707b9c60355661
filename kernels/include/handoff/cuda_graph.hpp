#pragma once
// Owners of a captured CUDA graph and of its instantiation.

#include <cuda_runtime_api.h>

#include <memory>
#include <type_traits>

#include "handoff/cuda_check.hpp"

namespace handoff {

struct cuda_graph_destroy {
  void operator()(cudaGraph_t graph) const noexcept {
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph));
  }
};

struct cuda_graph_exec_destroy {
  void operator()(cudaGraphExec_t exec) const noexcept {
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaGraphExecDestroy(exec));
  }
};

using cuda_graph = std::unique_ptr<std::remove_pointer_t<cudaGraph_t>, cuda_graph_destroy>;
using cuda_graph_exec =
    std::unique_ptr<std::remove_pointer_t<cudaGraphExec_t>, cuda_graph_exec_destroy>;

}  // namespace handoff
