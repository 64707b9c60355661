// pool_prep's table: the rows variants.def names, in its order.

#include "rows.hpp"

namespace handoff::patterns::pool_prep {

variant_table<point, batch_case> pool_prep_variants() {
  static const row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

}  // namespace handoff::patterns::pool_prep
