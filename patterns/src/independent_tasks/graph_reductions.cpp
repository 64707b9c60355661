#include <algorithm>
#include <memory>

#include "device_datasets.hpp"
#include "device_floor.hpp"
#include "device_session.hpp"
#include "handoff/cuda_check.hpp"
#include "handoff/cuda_graph.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "per_dataset_work.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {
namespace {

unsigned branches_for(std::size_t datasets) {
  return static_cast<unsigned>(
      std::clamp<std::size_t>(datasets, 1, static_cast<std::size_t>(max_graph_branches)));
}

// A capture that fails half-way must still be ended, or the stream stays in capture mode.
cuda_graph capture(cudaStream_t stream, const per_dataset_work& work) {
  HANDOFF_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    work.enqueue();
  } catch (...) {
    cudaGraph_t abandoned = nullptr;
    HANDOFF_CUDA_CHECK_NOEXCEPT(cudaStreamEndCapture(stream, &abandoned));
    if (abandoned != nullptr) HANDOFF_CUDA_CHECK_NOEXCEPT(cudaGraphDestroy(abandoned));
    throw;
  }
  cudaGraph_t graph = nullptr;
  HANDOFF_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  return cuda_graph(graph);
}

}  // namespace

struct graph_reductions::captured {
  cuda_graph graph;
  cuda_graph_exec exec;
};

graph_reductions::graph_reductions(const dataset_batch& batch, data_location where)
    : data_(std::make_unique<device_datasets>(batch, where)),
      work_(std::make_unique<per_dataset_work>(*data_, branches_for(batch.size()))) {
  if (batch.size() == 0) return;  // nothing to capture; a run does nothing
  // One run outside the capture loads CUB's kernels, so the capture records launches only.
  work_->enqueue();
  HANDOFF_CUDA_CHECK(cudaStreamSynchronize(data_->stream()));
  graph_ = std::make_unique<captured>();
  graph_->graph = capture(data_->stream(), *work_);
  cudaGraphExec_t exec = nullptr;
  HANDOFF_CUDA_CHECK(cudaGraphInstantiate(&exec, graph_->graph.get(), 0));
  graph_->exec.reset(exec);
}

graph_reductions::~graph_reductions() = default;

cudaStream_t graph_reductions::stream() const noexcept {
  return data_->stream();
}

unsigned graph_reductions::branches() const noexcept {
  return work_->branches();
}

void graph_reductions::poison_output() {
  data_->poison();
}

void graph_reductions::enqueue() {
  if (graph_) HANDOFF_CUDA_CHECK(cudaGraphLaunch(graph_->exec.get(), data_->stream()));
}

std::vector<float> graph_reductions::result() {
  return data_->result();
}

}  // namespace handoff::patterns::independent_tasks

namespace handoff::patterns::independent_tasks {

task_session set_up_graph(const task_point& at, compute_target) {
  return std::make_unique<whole_run_session<graph_reductions>>(
      at, [](const graph_reductions& variant) {
        return std::vector<named_figure>{{"branches", static_cast<double>(variant.branches())}};
      });
}

task_floor graph_floor(const task_point& at, compute_target, const measured_run&) {
  return device_variant_floor(at, 1.0, true);
}

constinit const task_row graph_variant{
    .name = "graph",
    .description = "the per-dataset launches captured in one CUDA graph",
    .targets = device_only,
    .clock = clock_kind::cuda_events,
    .cold = cold_kind::none,
    .setup = set_up_graph,
    .floor = graph_floor};

}  // namespace handoff::patterns::independent_tasks
