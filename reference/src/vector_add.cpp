#include "handoff/reference/vector_add.hpp"

#include <stdexcept>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {

void vector_add(std::span<const float> a, std::span<const float> b, std::span<float> out) {
  if (a.size() != b.size() || a.size() != out.size()) {
    throw std::invalid_argument("vector_add: a, b and out must have the same length");
  }
  parallel_for(out.size(), [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i)
      out[i] = a[i] + b[i];
  });
}

}  // namespace handoff::reference
