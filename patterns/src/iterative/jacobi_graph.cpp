#include "handoff/patterns/iterative/jacobi_device_variants.hpp"
#include "handoff/patterns/iterative/variants.hpp"
#include "handoff/wall_clock.hpp"
#include "jacobi_variant_session.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::iterative {

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

stage_times jacobi_graph::enqueue() {
  log_ = {};
  stage_times stages;
  const cudaStream_t stream = state_.stream();
  before_launch_.record(stream);
  HANDOFF_CUDA_CHECK(cudaGraphLaunch(exec_.get(), stream));
  after_graph_.record(stream);
  after_graph_.synchronize();
  // The graph cannot stop early, so the host compares the norms once the whole run is done.
  const auto compared = wall_clock::now();
  for (std::size_t check = 0; check < state_.checks().size(); ++check)
    log_.record(state_.checks()[check], state_.host_norm_squared(check), state_.unknowns());
  stages.post = seconds_since(compared);
  stages.kernel = elapsed_milliseconds(before_launch_, after_graph_) * 1e-3;
  return stages;
}

}  // namespace handoff::patterns::iterative

namespace handoff::patterns::iterative {
namespace {

// The graph is captured and uploaded at set-up; its node count is one more figure.
class graph_session final : public detail::device_jacobi_session<jacobi_graph> {
 public:
  using device_jacobi_session::device_jacobi_session;

  std::vector<named_figure> figures() const override {
    auto figures = device_jacobi_session::figures();
    figures.push_back({"graph_nodes", static_cast<double>(variant().graph_nodes())});
    return figures;
  }
};

}  // namespace

std::unique_ptr<jacobi_session> set_up_graph(const jacobi_point& at, compute_target) {
  return std::make_unique<graph_session>(at);
}

// The solve's bytes, after one launch that the host waits for (launch_sync: the host needs the
// norms). The graph's nodes are not priced: pricing each at kernel_launch_async, which measures
// the CPU's launch path that a graph skips, exceeds the measured run: a step of the whole graph
// took less than one such launch. A graph-node ceiling would price them.
// (figures: docs/design/measured-along-the-way.md, "Why the graph's nodes are not priced")
floor_terms graph_floor(const jacobi_point& at, compute_target, const measured_run&) {
  floor_terms floor;
  detail::add_step_bytes(floor, at);
  floor.add_events(detail::launch_sync, 1);
  return floor;
}

constinit const jacobi_row graph_variant{
    .name = "graph",
    .description = "the iterations and their checks captured in one CUDA graph",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .setup = set_up_graph,
    .floor = graph_floor};

}  // namespace handoff::patterns::iterative
