target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/queued_worker/queued_worker_bench.cpp)
