target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/array_split.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/chunk_sum.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/chunked_copy_back.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/computed_result.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/cpu_serial.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/gpu_reduce.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/overlapped_split.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/pooled_split.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/pooled_split_session.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/post_floor.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/seed_split.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/shm_split.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/split_case.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/summing_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/summing_worker.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/variants.cpp)
