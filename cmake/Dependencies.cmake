find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)

# xxHash is used header-only (XXH_INLINE_ALL), so only its header is needed. A checkout may carry
# the header in .deps/include for machines that cannot install packages.
find_path(HANDOFF_XXHASH_INCLUDE_DIR xxhash.h HINTS ${PROJECT_SOURCE_DIR}/.deps/include REQUIRED)
add_library(handoff_xxhash INTERFACE)
target_include_directories(handoff_xxhash SYSTEM INTERFACE ${HANDOFF_XXHASH_INCLUDE_DIR})
target_compile_definitions(handoff_xxhash INTERFACE XXH_INLINE_ALL)
# Bulk hashing (transport's frame_checksum) goes through the shared library's run-time dispatch
# on x86-64, which picks AVX-512, AVX2 or SSE2 on the machine it runs on: the header-only build is
# fixed to what the compiler targets, SSE2 for generic x86-64, which hashes far slower than AVX2.
# ci/carry-deps stages the library and its header in .deps. Elsewhere (aarch64's header code is
# NEON already), or without the library, frame_checksum uses the header.
add_library(handoff_xxhash_dispatch INTERFACE)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  find_path(HANDOFF_XXHASH_DISPATCH_INCLUDE_DIR xxh_x86dispatch.h
    HINTS ${PROJECT_SOURCE_DIR}/.deps/include)
  find_library(HANDOFF_XXHASH_LIBRARY xxhash HINTS ${PROJECT_SOURCE_DIR}/.deps/lib)
  if(HANDOFF_XXHASH_DISPATCH_INCLUDE_DIR AND HANDOFF_XXHASH_LIBRARY)
    include(CheckLibraryExists)
    check_library_exists(${HANDOFF_XXHASH_LIBRARY} XXH3_64bits_update_dispatch ""
      HANDOFF_XXHASH_HAS_DISPATCH)
  endif()
  if(HANDOFF_XXHASH_HAS_DISPATCH)
    target_include_directories(handoff_xxhash_dispatch SYSTEM INTERFACE
      ${HANDOFF_XXHASH_DISPATCH_INCLUDE_DIR})
    target_link_libraries(handoff_xxhash_dispatch INTERFACE ${HANDOFF_XXHASH_LIBRARY})
    target_compile_definitions(handoff_xxhash_dispatch INTERFACE HANDOFF_XXHASH_DISPATCH)
  else()
    message(WARNING "handoff: no libxxhash with XXH3_64bits_update_dispatch (Debian's libxxhash-dev "
      "has it; ci/setup installs it): frame checksums use the header's SSE2 code, about a third "
      "of AVX2's speed, which slows the host-path tensor transfers")
  endif()
endif()

find_package(nlohmann_json 3 REQUIRED)
# NCCL is optional, and loaded with dlopen at first use, so only its header and the directory of
# its library are needed here.
find_path(HANDOFF_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS})
find_library(HANDOFF_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR})
if(HANDOFF_NCCL_INCLUDE_DIR AND HANDOFF_NCCL_LIBRARY)
  set(NCCL_FOUND TRUE)
  get_filename_component(HANDOFF_NCCL_LIBRARY_DIR ${HANDOFF_NCCL_LIBRARY} DIRECTORY)
else()
  set(NCCL_FOUND FALSE)
  unset(HANDOFF_NCCL_INCLUDE_DIR CACHE)
endif()
find_package(MPI QUIET COMPONENTS CXX)
set(BLA_VENDOR OpenBLAS)
# ci/carry-deps stages OpenBLAS in .deps/openblas for machines that cannot install it.
list(APPEND CMAKE_LIBRARY_PATH ${PROJECT_SOURCE_DIR}/.deps/openblas/lib)
find_package(BLAS QUIET)

function(handoff_report_dependency name found detail)
  if(found)
    message(STATUS "handoff: ${name}: found ${detail}")
  else()
    message(STATUS "handoff: ${name}: not found (optional; the variants that need it are not built)")
  endif()
endfunction()

message(STATUS "handoff: CUDA toolkit ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
message(STATUS "handoff: Google Benchmark ${benchmark_VERSION}")
message(STATUS "handoff: nlohmann-json ${nlohmann_json_VERSION}")
handoff_report_dependency("NCCL" "${NCCL_FOUND}" "${HANDOFF_NCCL_LIBRARY}")
handoff_report_dependency("MPI" "${MPI_CXX_FOUND}" "${MPI_CXX_VERSION}")
handoff_report_dependency("OpenBLAS" "${BLAS_FOUND}" "")
