target_sources(handoff_reference PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/pool_prep_inputs.cpp)
