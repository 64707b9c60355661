# The multi_gpu pattern (seed 004): the even, round-robin and weighted partitioners.
target_sources(handoff_patterns PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/partition.cpp)
# The table (variants.cpp), one file per variant (kernel_only, seed_host_gather, host_pinned_gather,
# peer_gather, nccl_allgather), the shared setup, case, sessions, figures and floors.
target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/figures.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/floors.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/host_pinned_gather.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/kernel_only.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/launch_check.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/multi_gpu_case.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/multi_gpu_session.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_allgather.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/partitioned_devices.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/partitioned_run.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/partitioned_setup.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/peer_access.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/peer_gather.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/seed_host_gather.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/variants.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/workloads.cpp)

# NCCL is optional (cmake/Dependencies.cmake looks for it) and loaded with dlopen at first use
# (src/multi_gpu/nccl_library.cpp says why): only its header is needed here, and the directory the
# library was found in, as the place to look when the loader's own search does not find it.
if(NCCL_FOUND)
  target_sources(handoff_patterns PRIVATE
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_communicators.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_gather.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_library.cpp)
  target_include_directories(handoff_patterns SYSTEM PUBLIC ${HANDOFF_NCCL_INCLUDE_DIR})
  target_compile_definitions(handoff_patterns PUBLIC HANDOFF_HAVE_NCCL)
  set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/src/multi_gpu/nccl_library.cpp APPEND PROPERTY
    COMPILE_DEFINITIONS HANDOFF_NCCL_LIBRARY_DIR="${HANDOFF_NCCL_LIBRARY_DIR}")
endif()
