#include <algorithm>
#include <stdexcept>
#include <string>

#include "handoff/patterns/elementwise/vector_add_variants.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/parallel_for.hpp"

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
