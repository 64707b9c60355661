#pragma once
// What the in-process device variants' sessions share. Each holds its own copy of the point's
// seeded datasets (datasets_for: the case's values) and builds its variant at set-up, so that the
// variant's stream exists when the driver starts timing with events on it. A run enqueues the
// variant's steps with stage marks between them and does not wait; verify() waits and reads the
// sums as the user would. The marks' times reach the driver after the samples (stages_per_run),
// since a run cannot fill its run_result without waiting inside the timed region; they span the
// whole run, so none of it is a wait. A session with no spans records no marks at all: its whole
// run is the kernel stage, timed by the driver's own events.

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "handoff/patterns/independent_tasks/stage_marks.hpp"
#include "handoff/patterns/independent_tasks/task_case.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::independent_tasks {

template <class Variant>
class device_session : public session<task_case> {
 public:
  // spans: the stage of each span between marks, or none for a run that is the kernel stage.
  device_session(const task_point& at, std::vector<stage_member> spans)
      : batch_(datasets_for(at)),
        variant_(std::make_unique<Variant>(batch_, at.where)),
        spans_(std::move(spans)),
        marks_(spans_.size()) {}

  run_result run(task_case&) final {
    marks_.begin_run();
    enqueue_marked(*variant_, marks_);
    return {};
  }
  void poison(task_case& work) final {
    work.poison();
    variant_->poison_output();
  }
  reference::verification_result verify(const task_case& work) const final {
    return work.verify(variant_->result());
  }
  cudaStream_t stream() const final { return variant_->stream(); }
  std::vector<named_figure> figures() const final { return own_figures(*variant_); }
  stages_of_a_run stages_per_run(const stage_times&, double mean_seconds) final {
    if (spans_.empty()) return whole_run_as(&stage_times::kernel, mean_seconds);
    stages_of_a_run run{.stages = {}, .span_the_run = true};
    const auto seconds = marks_.report();
    for (std::size_t span = 0; span < spans_.size(); ++span)
      run.stages.*spans_[span] += seconds[span];
    return run;
  }

 protected:
  // Enqueues one run with marks.mark(i, stream) before span i and after the last.
  virtual void enqueue_marked(Variant& variant, const stage_marks& marks) = 0;
  virtual std::vector<named_figure> own_figures(const Variant&) const { return {}; }

 private:
  dataset_batch batch_;
  std::unique_ptr<Variant> variant_;
  std::vector<stage_member> spans_;
  stage_marks marks_;  // reported (and restarted) by stages_per_run()
};

// streams and graph overlap one dataset's copies with another's reduction, so a run is reported
// as one kernel stage.
template <class Variant>
class whole_run_session final : public device_session<Variant> {
 public:
  using own_figure = std::vector<named_figure> (*)(const Variant&);
  whole_run_session(const task_point& at, own_figure figure)
      : device_session<Variant>(at, {&stage_times::kernel}), figure_(figure) {}

 private:
  void enqueue_marked(Variant& variant, const stage_marks& marks) override {
    marks.mark(0, variant.stream());
    variant.enqueue();
    marks.mark(1, variant.stream());
  }
  std::vector<named_figure> own_figures(const Variant& variant) const override {
    return figure_(variant);
  }
  own_figure figure_;
};

}  // namespace handoff::patterns::independent_tasks
