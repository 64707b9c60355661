// cpu_threads: CPU threads add a slice each. Threads are started for each run, as a script's thread
// pool would be used per batch; a slice is at least reference::parallel_grain elements, so small
// inputs use fewer threads, and the row reports how many it used (worker_threads).

#include <vector>

#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

class cpu_threads_session final : public vector_add_session {
 public:
  explicit cpu_threads_session(const vector_add_point& at)
      : inputs_(seeded_vector_add_inputs(at.count)), out_(at.count) {}

  run_result run(vector_add_case&) override {
    threads_used_ = reference::parallel_for(
        out_.size(),
        [this](std::size_t begin, std::size_t end) { add_range(*inputs_, out_, begin, end); });
    return {};
  }
  void poison(vector_add_case&) override { reference::poison(out_); }
  reference::verification_result verify(const vector_add_case& work) const override {
    return work.verify_sum(out_);
  }
  std::vector<named_figure> figures() const override {
    return {{"worker_threads", static_cast<double>(threads_used_)}};
  }

 private:
  std::shared_ptr<const vector_add_inputs> inputs_;
  std::vector<float> out_;
  unsigned threads_used_ = 0;  // by the latest run
};

std::unique_ptr<vector_add_session> set_up_cpu_threads(const vector_add_point& at, compute_target) {
  return std::make_unique<cpu_threads_session>(at);
}

}  // namespace

constinit const vector_add_row cpu_threads_variant{.name = "cpu_threads",
                                                   .description = "CPU threads, a slice each",
                                                   .targets = on_cpu,
                                                   .reports_stages = false,
                                                   .setup = set_up_cpu_threads};

}  // namespace handoff::patterns::elementwise
