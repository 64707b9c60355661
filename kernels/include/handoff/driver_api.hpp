#pragma once
// Typed access to CUDA driver API functions without linking libcuda. Binaries must start on
// machines with no driver, so the project links only the static runtime and asks it, at run time,
// for each driver function (cudaGetDriverEntryPointByVersion). The version asked for is the one of
// the cuda.h this was compiled against, so the function found has exactly the signature declared
// there (cuMemGetAddressRange resolves to cuMemGetAddressRange_v2, as the header's macro does).
//
//   HANDOFF_CU_CHECK(HANDOFF_DRIVER_FUNCTION(cuMemCreate)(&handle, size, &properties, 0));

#include <cuda.h>

namespace handoff {

// The entry point of a driver function, looked up once per process and cached; throws cuda_error
// naming the function when the driver is absent or too old to have it.
void* driver_entry_point(const char* symbol);

template <class Function>
Function typed_driver_entry_point(const char* symbol) {
  return reinterpret_cast<Function>(driver_entry_point(symbol));
}

// Reports a failed driver call on stderr without throwing, for destructors.
void report_driver_error_noexcept(CUresult status, const char* call, const char* file,
                                  int line) noexcept;

}  // namespace handoff

// The driver function `name`, typed as cuda.h declares it. `#name` is the base name, taken before
// the header's versioning macro applies; `decltype(&name)` is the versioned declaration's type. The
// static keeps each call site from repeating even the cached lookup.
#define HANDOFF_DRIVER_FUNCTION(name)                                \
  ([]() -> decltype(&name) {                                         \
    static const auto handoff_function =                             \
        ::handoff::typed_driver_entry_point<decltype(&name)>(#name); \
    return handoff_function;                                         \
  }())

#define HANDOFF_CU_CHECK_NOEXCEPT(call) \
  ::handoff::report_driver_error_noexcept((call), #call, __FILE__, __LINE__)
