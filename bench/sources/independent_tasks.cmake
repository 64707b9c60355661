target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/independent_tasks/independent_tasks_bench.cpp)
