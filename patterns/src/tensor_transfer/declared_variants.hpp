#pragma once
// Every tensor_transfer variant, each defined in its own file and named in variants.def.

#include "handoff/patterns/tensor_transfer/transfer_setup.hpp"

namespace handoff::patterns {

#define HANDOFF_VARIANT(name) extern const transfer_row name##_variant;
#include "variants.def"
#undef HANDOFF_VARIANT

}  // namespace handoff::patterns
