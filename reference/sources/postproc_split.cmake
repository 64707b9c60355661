target_sources(handoff_reference PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/compensated_sum.cpp)
