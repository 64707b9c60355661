# Hopper (sm_90) is the suite's reference target. A user's own choice, through the cache variable or
# the CUDAARCHS environment variable, always wins. This runs before project() so that CMake's own
# detection, which needs a GPU for "native", never runs on a machine without one.
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
  set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures to build for")
endif()
