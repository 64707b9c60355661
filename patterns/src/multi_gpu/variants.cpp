// The multi_gpu table: the rows variants.def names, in its order. Every row runs on the devices
// only (no host stand-in: the variants are the CUDA copies and collectives themselves) and times
// itself (variants.hpp says why). None has stages to tell apart: the copies and collectives are
// the run.

#include "rows.hpp"

namespace handoff::patterns::multi_gpu {

variant_table<multi_gpu_point, multi_gpu_case, across_ranks> multi_gpu_variants() {
  static const multi_gpu_row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

std::string multi_gpu_unavailable_reason(std::string_view variant, int gpus) {
  return unavailable_reason_of(find_row(multi_gpu_variants(), variant), gpus);
}

}  // namespace handoff::patterns::multi_gpu
