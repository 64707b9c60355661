target_sources(handoff_kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/sum_of_squares.cu)
