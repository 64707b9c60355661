# The iterative pattern: Jacobi solves whose state crosses to the host every step, stays on the
# device, or runs as one CUDA graph; and the one-thread CPU figure.
target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_problem.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_case.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_session_support.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_cpu_serial.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_host_loop.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/device_jacobi_state.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_device_loop.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/jacobi_graph.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/iterative/variants.cpp)
