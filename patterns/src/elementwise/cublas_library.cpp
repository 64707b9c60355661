#include "cublas_library.hpp"

#include <dlfcn.h>

#include <string>

namespace handoff::patterns::elementwise {
namespace {

const std::string library_name = "libcublas.so." + std::to_string(CUBLAS_VER_MAJOR);

// The loader's own search first (LD_LIBRARY_PATH, the system cache), then the toolkit directory
// CMake found at build time.
void* open_library() {
  if (void* handle = ::dlopen(library_name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const std::string first_error = ::dlerror();
  const std::string in_toolkit = std::string(HANDOFF_CUDA_LIBRARY_DIR) + "/" + library_name;
  if (void* handle = ::dlopen(in_toolkit.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  throw cublas_error("cannot load cuBLAS: " + first_error + "; " + ::dlerror());
}

template <class Function>
void resolve(void* library, const char* symbol, Function& function) {
  function = reinterpret_cast<Function>(::dlsym(library, symbol));
  if (function == nullptr) {
    throw cublas_error("cuBLAS (" + library_name + ") lacks " + symbol);
  }
}

cublas_library load() {
  void* library = open_library();  // kept for the life of the process, as a linked one would be
  cublas_library api{};
  resolve(library, "cublasCreate_v2", api.create);
  resolve(library, "cublasDestroy_v2", api.destroy);
  resolve(library, "cublasSetStream_v2", api.set_stream);
  resolve(library, "cublasSetMathMode", api.set_math_mode);
  resolve(library, "cublasSgemm_v2", api.sgemm);
  resolve(library, "cublasGetStatusName", api.status_name);
  resolve(library, "cublasGetStatusString", api.status_string);
  return api;
}

}  // namespace

const cublas_library& cublas() {
  static const cublas_library api = load();
  return api;
}

}  // namespace handoff::patterns::elementwise
