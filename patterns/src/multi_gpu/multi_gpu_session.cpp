#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"

#include <stdexcept>
#include <utility>

#include "handoff/scoped_device.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

event event_on(int ordinal) {
  const scoped_device on_device(ordinal);
  return event{};
}

}  // namespace

multi_gpu_session::multi_gpu_session(std::shared_ptr<partitioned_setup> setup, run_scope scope,
                                     gather_kind gather, std::string_view variant)
    : setup_(std::move(setup)), variant_(variant), scope_(scope), gather_(gather) {
  // Scope gather times the gather alone: the kernel's results are computed once, here, for it to
  // read (no other session runs on these devices while this one is in use).
  if (scope_ == run_scope::gather) {
    enqueue_partitioned_run(*setup_->devices, setup_->kernel, nullptr, run_scope::resident);
    setup_->devices->synchronize(site("computing the results to gather", -1));
  }
}

std::vector<named_figure> multi_gpu_session::figures() const {
  auto figures = throughput_figures(*setup_, totals_);
  for (auto& figure : gather_figures(setup_->plan, gather_, scope_, totals_))
    figures.push_back(std::move(figure));
  totals_ = {};
  next_run_is_warm_up_ = true;
  return figures;
}

void multi_gpu_session::check_case(const multi_gpu_case& work) const {
  if (work.shared_setup() != setup_ || work.scope() != scope_) {
    throw std::invalid_argument("multi_gpu: a case of another configuration or scope was given");
  }
}

void multi_gpu_session::count_run(double seconds, const std::vector<double>& busy_seconds) {
  if (next_run_is_warm_up_) {
    next_run_is_warm_up_ = false;
    return;
  }
  totals_.add(seconds, busy_seconds);
}

gather_session::gather_session(std::shared_ptr<partitioned_setup> setup, run_scope scope,
                               gather_kind kind, std::unique_ptr<device_gather> gather,
                               std::string_view variant)
    : multi_gpu_session(std::move(setup), scope, kind, variant),
      gather_(std::move(gather)),
      start_(event_on(this->setup().devices->slots().front().ordinal)),
      stop_(event_on(this->setup().devices->slots().front().ordinal)) {}

run_result gather_session::run(multi_gpu_case& work) {
  check_case(work);
  auto& devices = *setup().devices;
  start_.record(devices.origin());
  enqueue_partitioned_run(devices, setup().kernel, gather_.get(), scope());
  stop_.record(devices.origin());
  wait_for(stop_, site("run", devices.slots().front().ordinal));
  const double seconds = elapsed_milliseconds(start_, stop_) * 1e-3;
  count_run(seconds, devices.busy_seconds());
  return {.seconds = seconds, .stages = {}};
}

void gather_session::poison(multi_gpu_case& work) {
  if (gather_) gather_->poison();
  work.poison();
}

reference::verification_result gather_session::verify(const multi_gpu_case& work) const {
  if (!gather_) return work.verify();
  // Every copy the gather made, each against the whole reference.
  reference::verification_result total;
  for (const auto& copy : gather_->results()) {
    const auto verdict = reference::verify_elementwise(setup().expected, copy, setup().max_ulp);
    total.checked += verdict.checked;
    total.mismatches += verdict.mismatches;
    if (!total.first) total.first = verdict.first;
  }
  return total;
}

std::vector<named_figure> gather_session::figures() const {
  auto figures = multi_gpu_session::figures();
  for (auto& figure : figures_of_gather())
    figures.push_back(std::move(figure));
  return figures;
}

std::vector<named_figure> gather_session::figures_of_gather() const {
  return gather_ ? gather_->figures() : std::vector<named_figure>{};
}

cudaStream_t gather_session::stream() const {
  return setup().devices->origin();
}

}  // namespace handoff::patterns::multi_gpu
