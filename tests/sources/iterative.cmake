# The iterative pattern: the table's CPU rows against the conformance checks, the Jacobi oracle,
# its tolerance and the host step (cpu); the table's device rows, the kernel and the device
# variants' own checks (gpu).
handoff_add_gtest(handoff_iterative_cpu_tests cpu
  SOURCES
    iterative/conformance_test.cpp
    iterative/jacobi_reference_test.cpp
    iterative/jacobi_tolerance_test.cpp
    iterative/jacobi_cpu_variant_test.cpp
  LIBRARIES handoff_patterns)

handoff_add_gtest(handoff_iterative_gpu_tests gpu
  SOURCES
    iterative/conformance_gpu_test.cpp
    iterative/jacobi_kernel_test.cpp
    iterative/jacobi_gpu_variants_test.cpp
  LIBRARIES handoff_patterns)

handoff_add_bench_smoke(iterative_cpu cpu 0 "^iterative/cpu_")
handoff_add_bench_smoke(iterative_gpu gpu 1 "^iterative/([^c]|c[^p]|cp[^u])")
