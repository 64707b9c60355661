# The iterative pattern: the Jacobi oracle, its tolerance and the CPU variant (cpu); the device
# variants, the kernel and the device's convergence norm (gpu).
handoff_add_gtest(handoff_iterative_cpu_tests cpu
  SOURCES
    iterative/jacobi_reference_test.cpp
    iterative/jacobi_tolerance_test.cpp
    iterative/jacobi_cpu_variant_test.cpp
  LIBRARIES handoff_patterns)

handoff_add_gtest(handoff_iterative_gpu_tests gpu
  SOURCES
    iterative/jacobi_kernel_test.cpp
    iterative/jacobi_gpu_variants_test.cpp
  LIBRARIES handoff_patterns)

handoff_add_bench_smoke(iterative_cpu cpu 0 "^iterative/cpu_" "iterative/cpu_serial/")
handoff_add_bench_smoke(iterative_gpu gpu 1 "^iterative/(host_loop|device_loop|graph)/"
  "iterative/host_loop/|iterative/device_loop/|iterative/graph/")
