# elementwise/extended (seed 002): x^2, -b/a and y = W x + b, CPU and GPU families, one row per
# variant of the table in patterns/elementwise/extended_table.hpp.
target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/elementwise/extended_bench.cpp)
