# The multi_gpu pattern's benchmarks (seed 004): multi_gpu/<variant>/.../gpus:<n>/....
target_sources(handoff_bench PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/multi_gpu/multi_gpu_bench.cpp)
# Users' own workloads (HANDOFF_USER_KERNELS, cmake/UserKernels.cmake) join the article's two.
if(TARGET handoff_user_kernels)
  target_link_libraries(handoff_bench PRIVATE handoff_user_kernels)
endif()

# One rank per GPU under mpirun, with NCCL bootstrapped through MPI: built where configure found
# both (cmake/Dependencies.cmake reports each).
if(MPI_CXX_FOUND AND NCCL_FOUND)
  add_executable(handoff_bench_mpi
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/mpi_bench_main.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/mpi_rows.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/mpi/mpi_session.cpp)
  target_link_libraries(handoff_bench_mpi PRIVATE handoff_bench_harness handoff_patterns
    MPI::MPI_CXX handoff_warnings)
  if(TARGET handoff_user_kernels)
    target_link_libraries(handoff_bench_mpi PRIVATE handoff_user_kernels)
  endif()
  set(HANDOFF_BENCH_MPI_BUILT ON PARENT_SCOPE)
  message(STATUS "handoff: handoff_bench_mpi (multi_gpu, one rank per GPU under mpirun): built")
else()
  set(HANDOFF_BENCH_MPI_BUILT OFF PARENT_SCOPE)
  message(STATUS "handoff: handoff_bench_mpi: not built (needs MPI and NCCL)")
endif()
