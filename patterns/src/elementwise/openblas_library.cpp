#include "openblas_library.hpp"

#include <string>

#include "handoff/transport/shared_library.hpp"

namespace handoff::patterns::elementwise {
namespace {

const std::string library_name = "libopenblas.so.0";

openblas_library load() {
  try {
    void* library = transport::open_shared_library(library_name, HANDOFF_OPENBLAS_LIBRARY_DIR);
    openblas_library api{};
    transport::resolve_symbol(library, library_name, "cblas_sgemm", api.sgemm);
    return api;
  } catch (const transport::library_load_error& error) {
    throw openblas_error(std::string("OpenBLAS: ") + error.what());
  }
}

}  // namespace

const openblas_library& openblas() {
  static const openblas_library api = load();
  return api;
}

}  // namespace handoff::patterns::elementwise
