target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/pool_prep/pool_prep_bench.cpp)
