# The elementwise pattern's extensions (seed 002): x^2, -b/a and y = W x + b in the variants
# cpu_map (spawned workers, a message per item), cpu_chunked, cpu_blas (OpenBLAS, when found),
# gpu_transfers and gpu_resident (cuBLAS for the GEMM).
target_sources(handoff_patterns PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/cublas_handle.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/cublas_library.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/device_workload.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_cpu_chunked.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_cpu_map.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_cpu_math.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_gpu_variants.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_problem.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_sweep.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_table.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/map_batch.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/map_pool.cpp
  ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/map_worker.cpp)
# cuBLAS is loaded with dlopen when the first handle is made (src/elementwise/cublas_library.hpp
# says why), not linked: only its header is needed here, and the toolkit's library directory as
# the place to look when the loader's own search does not find it.
set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/cublas_library.cpp APPEND PROPERTY
  COMPILE_DEFINITIONS HANDOFF_CUDA_LIBRARY_DIR="${CUDAToolkit_LIBRARY_DIR}")
target_link_libraries(handoff_patterns PUBLIC ${CMAKE_DL_LIBS})

# OpenBLAS is optional (cmake/Dependencies.cmake looks for it). Debian puts cblas.h under a
# directory named for the threading flavour; ci/carry-deps stages it in .deps/openblas/include.
if(BLAS_FOUND)
  find_path(HANDOFF_CBLAS_INCLUDE_DIR cblas.h
    HINTS ${PROJECT_SOURCE_DIR}/.deps/openblas/include /usr/include/x86_64-linux-gnu
          /usr/include/aarch64-linux-gnu /usr/include
    PATH_SUFFIXES openblas-pthread openblas openblas-openmp)
  if(HANDOFF_CBLAS_INCLUDE_DIR)
    # Loaded with dlopen at first use, not linked (src/elementwise/openblas_library.hpp says why):
    # only the header is needed here, and the directory CMake found the library in.
    target_sources(handoff_patterns PRIVATE
      ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/extended_cpu_blas.cpp
      ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/openblas_library.cpp)
    target_include_directories(handoff_patterns SYSTEM PRIVATE ${HANDOFF_CBLAS_INCLUDE_DIR})
    list(GET BLAS_LIBRARIES 0 handoff_openblas_file)
    get_filename_component(handoff_openblas_dir "${handoff_openblas_file}" DIRECTORY)
    set_property(SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/src/elementwise/openblas_library.cpp APPEND
      PROPERTY COMPILE_DEFINITIONS HANDOFF_OPENBLAS_LIBRARY_DIR="${handoff_openblas_dir}")
    target_compile_definitions(handoff_patterns PUBLIC HANDOFF_HAVE_OPENBLAS)
    message(STATUS "handoff: elementwise cpu_blas: cblas.h in ${HANDOFF_CBLAS_INCLUDE_DIR}")
  else()
    message(STATUS "handoff: elementwise cpu_blas: OpenBLAS found but no cblas.h; not built")
  endif()
endif()
