target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/tensor_transfer/tensor_transfer_bench.cpp)
