target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/batch.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/batch_case.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/chunk_prep_timing.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/chunk_streamer.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/cpu_serial.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/floors.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/map_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/map_pool_rows.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/map_worker.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/protocol.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/ring_worker.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/shared_gpu_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/threads_pipeline.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep/variants.cpp)
