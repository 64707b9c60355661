// independent_tasks's table: the rows variants.def names, in its order.

#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {

variant_table<task_point, task_case> independent_tasks_variants() {
  static const task_row rows[] = {
#define HANDOFF_VARIANT(name) name##_variant,
#include "variants.def"
#undef HANDOFF_VARIANT
  };
  return rows;
}

}  // namespace handoff::patterns::independent_tasks
