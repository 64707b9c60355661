# independent_tasks: the table's conformance, the reference, and the process orchestration with the
# host stand-in (cpu); the table's conformance and every variant on the device (gpu). Both programs
# start themselves again in the worker role.
handoff_add_worker_gtest(handoff_independent_tasks_cpu_tests cpu
  LABELS tsan
  SOURCES
    independent_tasks/conformance_test.cpp
    independent_tasks/sum_of_squares_reference_test.cpp
    independent_tasks/task_pool_host_test.cpp)

handoff_add_worker_gtest(handoff_independent_tasks_gpu_tests gpu
  SOURCES
    independent_tasks/conformance_gpu_test.cpp
    independent_tasks/device_reduction_test.cpp
    independent_tasks/device_variants_test.cpp
    independent_tasks/task_pool_device_test.cpp)

handoff_add_bench_smoke(independent_tasks_cpu cpu 0
  "^independent_tasks/(cpu_|[a-z_]+/compute:host)")
handoff_add_bench_smoke(independent_tasks_gpu gpu 1
  "^independent_tasks/[a-z_]+/(compute:device|data:)")
