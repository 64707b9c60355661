#pragma once
// Loading a toolkit library at first use rather than linking it. A linked library is mapped and
// relocated in every process the executable starts, spawned workers included: for cuBLAS
// (libcublasLt, over 500 MB) and NCCL (over 200 MB) that costs tenths of a second and hundreds of
// megabytes per process before main, and would distort every cold figure. The handle lives for
// the rest of the process, as a linked library's would.

#include <stdexcept>
#include <string>

namespace handoff::transport {

class library_load_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The loader's own search first (LD_LIBRARY_PATH, the system cache), then fallback_directory (the
// directory CMake found the library in at build time). library_load_error names both failures.
void* open_shared_library(const std::string& file_name, const std::string& fallback_directory);

// library_load_error when the library lacks the symbol.
void* find_symbol(void* library, const std::string& file_name, const char* symbol);

template <class Function>
void resolve_symbol(void* library, const std::string& file_name, const char* symbol,
                    Function& function) {
  function = reinterpret_cast<Function>(find_symbol(library, file_name, symbol));
}

}  // namespace handoff::transport
