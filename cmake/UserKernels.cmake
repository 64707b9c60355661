# HANDOFF_USER_KERNELS: users' own multi-GPU workloads, each one .cu file holding a kernel, its CPU
# reference, a tolerance and a HANDOFF_MULTI_GPU_WORKLOAD line
# (patterns/include/handoff/patterns/multi_gpu/workload_registry.hpp). They are compiled into an
# object library, not a static one, because nothing calls into them: their registrations run at
# start-up, and a linker keeps an archive's member only when something names it.
set(HANDOFF_USER_KERNELS "" CACHE STRING
  "Semicolon-separated .cu files, each registering a multi-GPU workload that handoff_bench runs")

set(handoff_user_kernel_files "")
foreach(file IN LISTS HANDOFF_USER_KERNELS)
  # A relative path is taken from the source tree, since a build directory may be anywhere.
  cmake_path(ABSOLUTE_PATH file BASE_DIRECTORY ${PROJECT_SOURCE_DIR} NORMALIZE
    OUTPUT_VARIABLE path)
  if(NOT EXISTS ${path} OR IS_DIRECTORY ${path})
    message(FATAL_ERROR "HANDOFF_USER_KERNELS names '${file}', which is not a file (looked for "
                        "${path}); give the path of a .cu file")
  endif()
  if(NOT path MATCHES "\\.cu$")
    message(FATAL_ERROR "HANDOFF_USER_KERNELS names '${file}': a user kernel file must end in .cu, "
                        "so that nvcc compiles its __global__ function")
  endif()
  list(APPEND handoff_user_kernel_files ${path})
endforeach()

if(handoff_user_kernel_files)
  add_library(handoff_user_kernels OBJECT ${handoff_user_kernel_files})
  target_link_libraries(handoff_user_kernels PRIVATE handoff_patterns handoff_warnings)
  list(JOIN handoff_user_kernel_files ", " handoff_listed)
  message(STATUS "handoff: user multi-GPU workloads from: ${handoff_listed}")
endif()
