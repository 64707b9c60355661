target_sources(handoff_reference PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/sum_of_squares.cpp)
