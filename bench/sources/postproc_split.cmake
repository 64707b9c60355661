target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/postproc_split/postproc_split_bench.cpp)
