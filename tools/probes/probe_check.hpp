#pragma once
// The probes' one error rule: a failed CUDA call prints where and why, and ends the probe.
#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                     \
  do {                                                                  \
    const cudaError_t status_ = (call);                                 \
    if (status_ != cudaSuccess) {                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, \
                   cudaGetErrorString(status_));                        \
      std::exit(2);                                                     \
    }                                                                   \
  } while (0)
