# The elementwise pattern's extensions (seed 002): the x^2 and -b/a oracles, and the affine
# oracle with its rounding tolerance.
target_sources(handoff_reference PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/extended_elementwise.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/verify_affine.cpp)
