#include <algorithm>
#include <stdexcept>
#include <string>

#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

void add_range(host_inputs inputs, std::span<float> out, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i)
    out[i] = inputs.a[i] + inputs.b[i];
}

}  // namespace

host_inputs checked(host_inputs inputs) {
  if (inputs.a.size() != inputs.b.size()) {
    throw std::invalid_argument("vector add: a has " + std::to_string(inputs.a.size()) +
                                " elements but b has " + std::to_string(inputs.b.size()));
  }
  return inputs;
}

vector_add_cpu_serial::vector_add_cpu_serial(host_inputs inputs)
    : inputs_(checked(inputs)), out_(inputs.a.size()) {}

void vector_add_cpu_serial::poison_output() {
  reference::poison(out_);
}

void vector_add_cpu_serial::run() {
  add_range(inputs_, out_, 0, out_.size());
}

vector_add_cpu_threads::vector_add_cpu_threads(host_inputs inputs)
    : inputs_(checked(inputs)), out_(inputs.a.size()) {}

void vector_add_cpu_threads::poison_output() {
  reference::poison(out_);
}

void vector_add_cpu_threads::run() {
  threads_used_ = reference::parallel_for(out_.size(), [this](std::size_t begin, std::size_t end) {
    add_range(inputs_, out_, begin, end);
  });
}

}  // namespace handoff::patterns::elementwise

namespace handoff::patterns::elementwise {
namespace {

// Timed by the wall clock; Variant: vector_add_cpu_serial or vector_add_cpu_threads.
template <class Variant>
class cpu_session final : public vector_add_session {
 public:
  explicit cpu_session(const vector_add_point& at)
      : inputs_(seeded_vector_add_inputs(at.count)), variant_(inputs_->view()) {}

  run_result run(vector_add_case&) override {
    variant_.run();
    return {};
  }
  void poison(vector_add_case&) override { variant_.poison_output(); }
  reference::verification_result verify(const vector_add_case& work) const override {
    return work.verify_sum(variant_.result());
  }
  std::vector<named_figure> figures() const override {
    if constexpr (requires { variant_.threads_used(); }) {
      return {{"worker_threads", static_cast<double>(variant_.threads_used())}};
    }
    return {};
  }

 private:
  std::shared_ptr<const vector_add_inputs> inputs_;  // what variant_ reads
  Variant variant_;
};

}  // namespace

std::unique_ptr<vector_add_session> set_up_vector_add_cpu_serial(const vector_add_point& at,
                                                                 compute_target) {
  return std::make_unique<cpu_session<vector_add_cpu_serial>>(at);
}

std::unique_ptr<vector_add_session> set_up_vector_add_cpu_threads(const vector_add_point& at,
                                                                  compute_target) {
  return std::make_unique<cpu_session<vector_add_cpu_threads>>(at);
}

constinit const vector_add_row cpu_serial_variant{.name = "cpu_serial",
                                                  .description = "one CPU thread",
                                                  .targets = on_cpu,
                                                  .reports_stages = false,
                                                  .setup = set_up_vector_add_cpu_serial,
                                                  .threads = host_threads::calling_only};

constinit const vector_add_row cpu_threads_variant{.name = "cpu_threads",
                                                   .description = "CPU threads, a slice each",
                                                   .targets = on_cpu,
                                                   .reports_stages = false,
                                                   .setup = set_up_vector_add_cpu_threads};

}  // namespace handoff::patterns::elementwise
