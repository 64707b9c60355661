# The iterative pattern: one Jacobi step, and the convergence check's update norm (CUB).
target_sources(handoff_kernels PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/jacobi_step.cu
  ${CMAKE_CURRENT_SOURCE_DIR}/src/jacobi_update_norm.cu)
