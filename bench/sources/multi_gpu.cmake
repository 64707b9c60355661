# The multi_gpu pattern's benchmarks (seed 004): multi_gpu/<variant>/.../gpus:<n>/....
target_sources(handoff_bench PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/multi_gpu/multi_gpu_bench.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/multi_gpu/multi_gpu_floors.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/multi_gpu/multi_gpu_setup.cpp)
