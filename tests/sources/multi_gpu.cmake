# The multi_gpu pattern (seed 004): the partitioners, the partitioned reference, the workload
# registry, the peer topology check, NCCL's tuning log, and the table's floors and gather figures
# (cpu); the table's conformance, every variant at every size and scope, the launch check and the
# example user workload, a run behind a stuck GPU giving up (gpu); the device and peer-access
# discipline, NCCL's symmetric windows, and every variant behind a stuck peer, on two or more GPUs
# (multigpu). The example user workload is compiled into the cpu and gpu programs whatever
# HANDOFF_USER_KERNELS says, so its tests always run.
set(handoff_user_kernel_example ${PROJECT_SOURCE_DIR}/examples/user_kernel/square_plus_device_value.cu)
handoff_add_gtest(handoff_multi_gpu_cpu_tests cpu
  LABELS tsan
  SOURCES
    multi_gpu/availability_test.cpp
    multi_gpu/sweep_points_test.cpp
    multi_gpu/floors_test.cpp
    multi_gpu/launch_threads_test.cpp
    multi_gpu/nccl_tuning_log_test.cpp
    multi_gpu/partition_test.cpp
    multi_gpu/partitioned_reference_test.cpp
    multi_gpu/peer_topology_test.cpp
    multi_gpu/workload_registry_test.cpp
    ${handoff_user_kernel_example}
  LIBRARIES handoff_patterns)

handoff_add_gtest(handoff_multi_gpu_gpu_tests gpu
  SOURCES
    multi_gpu/conformance_test.cpp
    multi_gpu/launch_check_test.cpp
    multi_gpu/stuck_peer_test.cpp
    multi_gpu/user_workload_test.cpp
    ${handoff_user_kernel_example}
  LIBRARIES handoff_patterns)

handoff_add_gtest(handoff_multi_gpu_multigpu_tests multigpu
  SOURCES multi_gpu/device_discipline_test.cpp multi_gpu/nccl_windows_test.cpp
    multi_gpu/stuck_peer_multigpu_test.cpp
  LIBRARIES handoff_patterns)

handoff_add_bench_smoke(multi_gpu_one_gpu gpu 1 "^multi_gpu/.*/gpus:1/")
handoff_add_bench_smoke(multi_gpu multigpu 2 "^multi_gpu/.*/gpus:2/")
# The example user workload's rows, when HANDOFF_USER_KERNELS (the ci preset's) brings it in: they
# must be listed, run and verify like the article's.
if(handoff_user_kernel_example IN_LIST handoff_user_kernel_files)
  handoff_add_bench_smoke(multi_gpu_user_workload gpu 1
    "^multi_gpu/.*/workload:square_plus_device_value/gpus:1/")
  # Without a GPU the rows are not listed, but the workload is: the user's file was built in.
  if(HANDOFF_BENCH_BUILT)
    add_test(NAME bench_selftest.a_user_workload_is_listed
      COMMAND handoff_bench --handoff-list-families)
    set_tests_properties(bench_selftest.a_user_workload_is_listed PROPERTIES LABELS cpu TIMEOUT 60
      PASS_REGULAR_EXPRESSION
        "multi_gpu_workloads: add_device_value scale_by_two square_plus_device_value\n")
  endif()
endif()

# One rank per GPU under mpirun, NCCL bootstrapped through MPI; built only with MPI and NCCL.
if(HANDOFF_BENCH_MPI_BUILT)
  handoff_add_bench_smoke(multi_gpu_mpi multigpu 2 "^multi_gpu_mpi/"
    BENCH handoff_bench_mpi
    LAUNCHER ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} 2 --timeout 300 ${MPIEXEC_PREFLAGS})
elseif(HANDOFF_BENCH_BUILT)
  add_test(NAME bench_smoke.multi_gpu_mpi COMMAND ${CMAKE_COMMAND} -E echo
    "HANDOFF-SKIPPED: handoff_bench_mpi was not built: configure found no MPI or no NCCL")
  set_tests_properties(bench_smoke.multi_gpu_mpi PROPERTIES LABELS "bench_smoke;multigpu"
    SKIP_REGULAR_EXPRESSION "HANDOFF-SKIPPED")
endif()
