// iterative's table: the rows variants.def names, in its order.

#include "variant_rows.hpp"

namespace handoff::patterns::iterative {

variant_table<jacobi_point, jacobi_case> iterative_variants() {
  static const jacobi_row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

}  // namespace handoff::patterns::iterative
