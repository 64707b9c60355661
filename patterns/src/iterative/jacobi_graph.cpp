#include <chrono>

#include "handoff/patterns/iterative/jacobi_device_variants.hpp"

namespace handoff::patterns::iterative {

void graph_destroy::operator()(cudaGraph_t graph) const noexcept {
  HANDOFF_CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(graph));
}

void graph_exec_destroy::operator()(cudaGraphExec_t exec) const noexcept {
  HANDOFF_CUDA_CHECK_NOEXCEPT(cudaGraphExecDestroy(exec));
}

jacobi_graph::jacobi_graph(jacobi_problem problem, int check_every) : state_(problem, check_every) {
  const cudaStream_t stream = state_.stream();
  // Thread-local capture: other threads' CUDA calls neither join this graph nor break it.
  HANDOFF_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  cudaGraph_t captured = nullptr;
  try {
    int k = 1;
    for (std::size_t check = 0; check < state_.checks().size(); ++check) {
      for (; k <= state_.checks()[check]; ++k)
        state_.enqueue_step(k);
      state_.enqueue_check(state_.checks()[check], check);
    }
    state_.enqueue_norms_download(0, state_.checks().size());
  } catch (...) {
    // End the capture, so the stream is usable and the error is the one that was thrown.
    static_cast<void>(cudaStreamEndCapture(stream, &captured));
    if (captured != nullptr) static_cast<void>(cudaGraphDestroy(captured));
    static_cast<void>(cudaGetLastError());
    throw;
  }
  HANDOFF_CUDA_CHECK(cudaStreamEndCapture(stream, &captured));
  graph_.reset(captured);
  HANDOFF_CUDA_CHECK(cudaGraphGetNodes(graph_.get(), nullptr, &nodes_));
  cudaGraphExec_t exec = nullptr;
  HANDOFF_CUDA_CHECK(cudaGraphInstantiate(&exec, graph_.get(), 0));
  exec_.reset(exec);
  // The upload is part of building the graph, not of a run.
  HANDOFF_CUDA_CHECK(cudaGraphUpload(exec_.get(), stream));
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(stream));
}

void jacobi_graph::poison_output() {
  state_.poison();
  log_ = {};
}

void jacobi_graph::enqueue() {
  using clock = std::chrono::steady_clock;
  log_ = {};
  stages_ = {};
  const cudaStream_t stream = state_.stream();
  before_launch_.record(stream);
  HANDOFF_CUDA_CHECK(cudaGraphLaunch(exec_.get(), stream));
  after_graph_.record(stream);
  after_graph_.synchronize();
  // The graph cannot stop early, so the host compares the norms once the whole run is done.
  const auto compared = clock::now();
  for (std::size_t check = 0; check < state_.checks().size(); ++check)
    log_.record(state_.checks()[check], state_.host_norm_squared(check), state_.unknowns());
  stages_.post = std::chrono::duration<double>(clock::now() - compared).count();
  stages_.kernel = elapsed_milliseconds(before_launch_, after_graph_) * 1e-3;
}

}  // namespace handoff::patterns::iterative
