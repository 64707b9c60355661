#include "cublas_library.hpp"

#include <string>

#include "handoff/transport/shared_library.hpp"

namespace handoff::patterns::elementwise {

using transport::resolve_symbol;

namespace {

const std::string library_name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

cublas_library load() {
  try {
    void* library = transport::open_shared_library(library_name, HANDOFF_CUDA_LIBRARY_DIR);
    cublas_library api{};
    resolve_symbol(library, library_name, "cublasCreate_v2", api.create);
    resolve_symbol(library, library_name, "cublasDestroy_v2", api.destroy);
    resolve_symbol(library, library_name, "cublasSetStream_v2", api.set_stream);
    resolve_symbol(library, library_name, "cublasSetMathMode", api.set_math_mode);
    resolve_symbol(library, library_name, "cublasSgemm_v2", api.sgemm);
    resolve_symbol(library, library_name, "cublasGetStatusName", api.status_name);
    resolve_symbol(library, library_name, "cublasGetStatusString", api.status_string);
    return api;
  } catch (const transport::library_load_error& error) {
    throw cublas_error(std::string("cuBLAS: ") + error.what());
  }
}

}  // namespace

const cublas_library& cublas() {
  static const cublas_library api = load();
  return api;
}

}  // namespace handoff::patterns::elementwise
