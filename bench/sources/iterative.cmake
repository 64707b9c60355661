# The iterative pattern's benchmarks: iterative/<variant>/unknowns:<n>/iterations:100.
target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/iterative/jacobi_bench.cpp)
