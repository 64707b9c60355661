#include "handoff/transport/shared_library.hpp"

#include <dlfcn.h>

namespace handoff::transport {

void* open_shared_library(const std::string& file_name, const std::string& fallback_directory) {
  if (void* handle = ::dlopen(file_name.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  const std::string first_error = ::dlerror();
  const std::string in_directory = fallback_directory + "/" + file_name;
  if (void* handle = ::dlopen(in_directory.c_str(), RTLD_NOW | RTLD_LOCAL)) return handle;
  throw library_load_error("cannot load " + file_name + ": " + first_error + "; " + ::dlerror());
}

void* find_symbol(void* library, const std::string& file_name, const char* symbol) {
  void* address = ::dlsym(library, symbol);
  if (address == nullptr) throw library_load_error(file_name + " lacks " + symbol);
  return address;
}

}  // namespace handoff::transport
