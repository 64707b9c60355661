# The patterns of handoff, listed once. Every layer (kernels, reference, patterns, tests)
# keeps a pattern's files in <layer>/sources/<pattern>.cmake and includes them through
# handoff_include_pattern_sources, so a new pattern is one line here plus its fragments.
set(HANDOFF_PATTERNS
  tensor_transfer
  pool_prep
  queued_worker
  postproc_split
  independent_tasks
  iterative
  elementwise_extended
  multi_gpu)

# Includes this directory's sources/<pattern>.cmake for every pattern. A fragment that names no
# listed pattern is an error (a typo would otherwise drop it silently); so, with REQUIRED, is a
# pattern without a fragment in this layer. A macro, so the fragments act in the caller's scope.
macro(handoff_include_pattern_sources)
  cmake_parse_arguments(handoff_sources "REQUIRED" "" "" ${ARGN})
  file(GLOB handoff_fragments RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/sources
    ${CMAKE_CURRENT_SOURCE_DIR}/sources/*.cmake)
  foreach(handoff_fragment IN LISTS handoff_fragments)
    string(REGEX REPLACE "\\.cmake$" "" handoff_pattern "${handoff_fragment}")
    if(NOT handoff_pattern IN_LIST HANDOFF_PATTERNS)
      message(FATAL_ERROR "${CMAKE_CURRENT_SOURCE_DIR}/sources/${handoff_fragment} is not a "
                          "pattern of HANDOFF_PATTERNS (cmake/Patterns.cmake)")
    endif()
  endforeach()
  foreach(handoff_pattern IN LISTS HANDOFF_PATTERNS)
    set(handoff_fragment ${CMAKE_CURRENT_SOURCE_DIR}/sources/${handoff_pattern}.cmake)
    if(EXISTS ${handoff_fragment})
      include(${handoff_fragment})
    elseif(handoff_sources_REQUIRED)
      message(FATAL_ERROR "pattern ${handoff_pattern} has no ${handoff_fragment}")
    endif()
  endforeach()
endmacro()

# Every .cpp and .cu file of one folder (not its subfolders) into target, so that a new variant's
# file needs no line in any CMake list. CONFIGURE_DEPENDS makes the build notice a new file.
# EXCLUDING takes out files a fragment adds on a condition (a library found or not).
function(handoff_add_folder_sources target folder)
  cmake_parse_arguments(PARSE_ARGV 2 arg "" "" "EXCLUDING")
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/*.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/*.cu)
  foreach(excluded IN LISTS arg_EXCLUDING)
    list(REMOVE_ITEM sources ${CMAKE_CURRENT_SOURCE_DIR}/${folder}/${excluded})
  endforeach()
  target_sources(${target} PRIVATE ${sources})
endfunction()
