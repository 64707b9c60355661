#pragma once
// cuBLAS, loaded on first use with dlopen rather than linked. Linking libcublas makes the dynamic
// loader map and relocate libcublasLt (over 500 MB) in every process this executable starts:
// time and resident memory spent before main in each spawned worker of every pattern, CPU-only
// workers included. Loaded here, only a process that creates a cuBLAS handle pays for it. The
// functions come from the header's own declarations, so a mismatch with the toolkit is a compile
// error.

#include <cublas_v2.h>

#include <stdexcept>

namespace handoff::patterns::elementwise {

class cublas_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct cublas_library {
  decltype(&cublasCreate) create;
  decltype(&cublasDestroy) destroy;
  decltype(&cublasSetStream) set_stream;
  decltype(&cublasSetMathMode) set_math_mode;
  decltype(&cublasSgemm) sgemm;
  decltype(&cublasGetStatusName) status_name;
  decltype(&cublasGetStatusString) status_string;
};

// Loads libcublas.so.<major> of the toolkit the suite was built with, once per process; a library
// that cannot be loaded, or lacks a function, is cublas_error naming it.
const cublas_library& cublas();

}  // namespace handoff::patterns::elementwise
