target_sources(handoff_kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/float_sum_in_double.cu)
