// postproc_split's table: the rows variants.def names, in its order.

#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {

variant_table<split_point, split_case> postproc_split_variants() {
  static const split_row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

}  // namespace handoff::patterns::postproc_split
