target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/array_split.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/chunk_sum.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/chunked_copy_back.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/computed_result.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/gpu_reduce.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/split_variants.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/summing_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/postproc_split/summing_worker.cpp)
