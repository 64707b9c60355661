# elementwise/extended (seed 002): the table's CPU rows against the conformance checks, and the
# variants' own checks (cpu); the table's device rows and the device variants' stages (gpu). The
# CPU program starts itself again as map workers (cpu_map), so it has the worker main.
handoff_add_worker_gtest(handoff_elementwise_extended_cpu_tests cpu
  LABELS tsan
  SOURCES
    elementwise_extended/conformance_test.cpp
    elementwise_extended/cpu_variants_test.cpp
    elementwise_extended/map_pool_test.cpp
    elementwise_extended/verify_affine_test.cpp
    elementwise_extended/workload_inputs.cpp)

handoff_add_gtest(handoff_elementwise_extended_gpu_tests gpu
  SOURCES
    elementwise_extended/conformance_gpu_test.cpp
    elementwise_extended/gpu_variants_test.cpp
    elementwise_extended/workload_inputs.cpp
  LIBRARIES handoff_patterns)
