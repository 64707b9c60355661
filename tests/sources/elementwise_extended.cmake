# elementwise/extended (seed 002). The CPU program starts itself again as map workers (cpu_map),
# so it has the worker main; the GPU program needs none.
handoff_add_worker_gtest(handoff_elementwise_extended_cpu_tests cpu
  SOURCES
    elementwise_extended/cpu_variants_test.cpp
    elementwise_extended/map_pool_test.cpp
    elementwise_extended/verify_affine_test.cpp
    elementwise_extended/workload_inputs.cpp)

handoff_add_gtest(handoff_elementwise_extended_gpu_tests gpu
  SOURCES
    elementwise_extended/gpu_variants_test.cpp
    elementwise_extended/workload_inputs.cpp
  LIBRARIES handoff_patterns)
