# elementwise/extended (seed 002): x^2, -b/a and y = W x + b, CPU and GPU families.
target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/elementwise/extended_bench_common.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/elementwise/extended_cpu_bench.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/elementwise/extended_gpu_bench.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/elementwise/extended_inputs.cpp)
