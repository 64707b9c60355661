#pragma once
// The oracle for vector add. One IEEE single-precision addition per element is correctly rounded,
// so a correct device result matches it exactly.

#include <span>

namespace handoff::reference {

void vector_add(std::span<const float> a, std::span<const float> b, std::span<float> out);

}  // namespace handoff::reference
