# The multi_gpu pattern (seed 004): the oracle for the user kernels run over a partitioned array.
target_sources(handoff_reference PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/partitioned_elementwise.cpp)
