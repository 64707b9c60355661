# The iterative pattern: the double-precision Jacobi oracle and its scaled tolerance.
target_sources(handoff_reference PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/jacobi.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/verify_relative.cpp)
