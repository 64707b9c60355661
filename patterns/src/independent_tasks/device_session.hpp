#pragma once
// What the in-process device variants' sessions share. Each holds its own copy of the point's
// seeded datasets (datasets_for: the case's values) and builds its variant at set-up, so that the
// variant's stream exists when the driver starts timing with events on it. A run enqueues the
// variant's steps with stage marks between them and does not wait; verify() waits and reads the
// sums as the user would. The stage times reach the driver as figures (stage.<name>, per run),
// which replace the stage counters a run cannot fill without waiting inside the timed region;
// stage.wait is 0, for the marks span the whole run. A session with no stage names records no
// marks at all, and says which stage its whole run is (session::whole_run_stage).

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
  // stage_names: one per span between marks; figure: the variant's own figure (its name and how
  // it reads it).
  device_session(const task_point& at, std::vector<std::string> stage_names)
      : batch_(datasets_for(at)),
        variant_(std::make_unique<Variant>(batch_, at.where)),
        stage_names_(std::move(stage_names)),
        marks_(stage_names_.size()) {}

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
  std::vector<named_figure> figures() const final {
    std::vector<named_figure> figures{{"stage.wait", 0.0}};
    const auto spans = marks_.report();
    for (std::size_t span = 0; span < spans.size(); ++span)
      figures.push_back({"stage." + stage_names_[span], spans[span]});
    for (auto& figure : own_figures(*variant_))
      figures.push_back(std::move(figure));
    return figures;
  }

 protected:
  // Enqueues one run with marks.mark(i, stream) before span i and after the last.
  virtual void enqueue_marked(Variant& variant, const stage_marks& marks) = 0;
  virtual std::vector<named_figure> own_figures(const Variant&) const { return {}; }

 private:
  dataset_batch batch_;
  std::unique_ptr<Variant> variant_;
  std::vector<std::string> stage_names_;
  mutable stage_marks marks_;  // reported (and restarted) by figures()
};

// streams and graph overlap one dataset's copies with another's reduction, so a run is reported
// as one kernel stage.
template <class Variant>
class whole_run_session final : public device_session<Variant> {
 public:
  using own_figure = std::vector<named_figure> (*)(const Variant&);
  whole_run_session(const task_point& at, own_figure figure)
      : device_session<Variant>(at, {"kernel"}), figure_(figure) {}

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
