# The multi_gpu pattern: the article's user kernels, launched through the RawKernel-like handle.
target_sources(handoff_kernels PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/user_kernels.cu)
