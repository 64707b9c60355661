# The elementwise pattern's extensions (seed 002): the x^2, -b/a and column-bias kernels.
target_sources(handoff_kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise_ops.cu)
