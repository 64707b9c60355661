#include "planted_wrong_result.hpp"

#include "../harness/driver.hpp"
#include "handoff/patterns/elementwise/vector_add_table.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"

namespace handoff::bench {
namespace {

using patterns::elementwise::vector_add_case;
using patterns::elementwise::vector_add_point;
using patterns::elementwise::vector_add_session;

// A vector add on one CPU thread whose session tampers with one element of its output before it
// is verified: the driver's shared verification must catch it.
class tampering_session final : public vector_add_session {
 public:
  explicit tampering_session(const vector_add_point& at)
      : inputs_(patterns::elementwise::seeded_vector_add_inputs(at.count)), out_(at.count) {}
  patterns::run_result run(vector_add_case&) override {
    reference::vector_add(inputs_->a, inputs_->b, out_);
    return {};
  }
  void poison(vector_add_case&) override { reference::poison(out_); }
  reference::verification_result verify(const vector_add_case& work) const override {
    std::vector<float> tampered = out_;
    tampered[tampered.size() / 2] += 1.0f;
    return work.verify_sum(tampered);
  }

 private:
  std::shared_ptr<const patterns::elementwise::vector_add_inputs> inputs_;
  std::vector<float> out_;
};

const patterns::variant_row<vector_add_point, vector_add_case> planted_rows[] = {
    {.name = "planted_wrong_result",
     .description = "a vector add whose result is tampered with after each run",
     .targets = {.cpu = true},
     .reports_stages = false,
     .setup = [](const vector_add_point& at,
                 patterns::compute_target) -> std::unique_ptr<vector_add_session> {
       return std::make_unique<tampering_session>(at);
     }},
};

const pattern_spec<vector_add_point, vector_add_case> planted_spec{
    .pattern = "selftest",
    .table = planted_rows,
    .make_case = patterns::elementwise::make_vector_add_case,
    .traffic =
        [](const vector_add_point&) {
          return std::pair{0.0, 0.0};
        },
    .figures = nullptr};

}  // namespace

void register_planted_wrong_result() {
  register_variant(planted_spec, planted_rows[0], {.count = 4096},
                   patterns::compute_target::host_stand_in, start::warm,
                   "selftest/planted_wrong_result");
}

}  // namespace handoff::bench
