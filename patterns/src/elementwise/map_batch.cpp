#include "map_batch.hpp"

#include <string>

#include "extended_cpu_math.hpp"
#include "handoff/patterns/elementwise/map_pool.hpp"

namespace handoff::patterns::elementwise {

using transport::process_error;

namespace {

extended_workload checked_workload(std::uint32_t value) {
  if (value > static_cast<std::uint32_t>(extended_workload::affine)) {
    throw process_error("map worker: unknown workload " + std::to_string(value));
  }
  return static_cast<extended_workload>(value);
}

void require(bool condition, const std::string& what) {
  if (!condition) throw process_error("map worker: " + what);
}

}  // namespace

std::optional<std::vector<float>> map_batch::take(const map_protocol::parsed& message) {
  if (message.head.what == map_protocol::kind::begin_batch) {
    begin(message);
    return std::nullopt;
  }
  require(message.head.what == map_protocol::kind::task, "unexpected message kind");
  return compute(message);
}

void map_batch::begin(const map_protocol::parsed& message) {
  workload_ = checked_workload(message.head.workload);
  if (workload_ == extended_workload::affine) {
    n_ = message.head.index;
    require(n_ >= 1 && n_ <= max_map_order, "affine order " + std::to_string(n_) + " out of range");
    require(message.values.size() == n_ * n_ + n_,
            "affine set-up holds the wrong number of values");
    w_.assign(message.values.begin(), message.values.begin() + static_cast<long>(n_ * n_));
    bias_.assign(message.values.begin() + static_cast<long>(n_ * n_), message.values.end());
  } else {
    require(message.values.empty(), "an elementwise set-up carries no values");
    n_ = 0;
  }
  begun_ = true;
}

std::vector<float> map_batch::compute(const map_protocol::parsed& message) const {
  require(begun_, "a task before the batch's set-up");
  require(message.head.workload == static_cast<std::uint32_t>(workload_),
          "a task of another workload than the batch's");
  const auto& in = message.values;
  switch (workload_) {
    case extended_workload::square:
      require(in.size() == 1, "a square task holds one value");
      return {cpu_math::square(in[0])};
    case extended_workload::neg_b_over_a:
      require(in.size() == 2, "a neg_b_over_a task holds the pair (a, b)");
      return {cpu_math::neg_b_over_a(in[0], in[1])};
    case extended_workload::affine: {
      require(in.size() == n_, "an affine task holds one column of n values");
      std::vector<float> column(n_);
      cpu_math::affine_column(n_, w_, in, bias_, column);
      return column;
    }
  }
  throw process_error("map worker: unreachable workload");
}

}  // namespace handoff::patterns::elementwise
