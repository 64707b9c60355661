# The multi_gpu pattern (seed 004): the partitioners, the table (variants.cpp), one file per
# variant, the shared setup, case, sessions, figures and floors; the NCCL collectives only where
# NCCL was found, below.
set(handoff_nccl_sources nccl_communicators.cpp nccl_gather.cpp nccl_library.cpp nccl_windows.cpp)
handoff_add_folder_sources(handoff_patterns src/multi_gpu EXCLUDING ${handoff_nccl_sources})

# NCCL is optional (cmake/Dependencies.cmake looks for it) and loaded with dlopen at first use
# (src/multi_gpu/nccl_library.cpp says why): only its header is needed here, and the directory the
# library was found in, as the place to look when the loader's own search does not find it.
if(NCCL_FOUND)
  target_sources(handoff_patterns PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_communicators.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_gather.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_library.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_windows.cpp)
  target_include_directories(handoff_patterns SYSTEM PUBLIC ${HANDOFF_NCCL_INCLUDE_DIR})
  target_compile_definitions(handoff_patterns PUBLIC HANDOFF_HAVE_NCCL)
  set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_library.cpp APPEND PROPERTY
    COMPILE_DEFINITIONS HANDOFF_NCCL_LIBRARY_DIR="${HANDOFF_NCCL_LIBRARY_DIR}")
endif()
