// cpu_serial: one CPU thread adds a and b, the reference the GPU ways are set against. Timed by the
// wall clock, on the calling thread alone (which holds it on one core while it is measured).

#include <vector>

#include "handoff/reference/inputs.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

class cpu_serial_session final : public vector_add_session {
 public:
  explicit cpu_serial_session(const vector_add_point& at)
      : inputs_(seeded_vector_add_inputs(at.count)), out_(at.count) {}

  run_result run(vector_add_case&) override {
    add_range(*inputs_, out_, 0, out_.size());
    return {};
  }
  void poison(vector_add_case&) override { reference::poison(out_); }
  reference::verification_result verify(const vector_add_case& work) const override {
    return work.verify_sum(out_);
  }

 private:
  std::shared_ptr<const vector_add_inputs> inputs_;
  std::vector<float> out_;
};

std::unique_ptr<vector_add_session> set_up_cpu_serial(const vector_add_point& at, compute_target) {
  return std::make_unique<cpu_serial_session>(at);
}

}  // namespace

constinit const vector_add_row cpu_serial_variant{.name = "cpu_serial",
                                                  .description = "one CPU thread",
                                                  .targets = on_cpu,
                                                  .reports_stages = false,
                                                  .setup = set_up_cpu_serial,
                                                  .threads = host_threads::calling_only};

}  // namespace handoff::patterns::elementwise
