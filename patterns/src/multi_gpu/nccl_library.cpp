#include "handoff/patterns/multi_gpu/nccl_library.hpp"

#include <exception>

#include "handoff/transport/shared_library.hpp"

namespace handoff::patterns::multi_gpu {

using transport::resolve_symbol;

namespace {

const std::string library_name = "libnccl.so." + std::to_string(NCCL_MAJOR);

// Null when the library lacks the symbol: the functions newer than the rows that need them.
template <class Function>
void resolve_if_present(void* library, const char* symbol, Function& function) {
  try {
    resolve_symbol(library, library_name, symbol, function);
  } catch (const transport::library_load_error&) {
    function = nullptr;
  }
}

nccl_library load() {
  try {
    void* library = transport::open_shared_library(library_name, HANDOFF_NCCL_LIBRARY_DIR);
    nccl_library api{};
    resolve_symbol(library, library_name, "ncclGetVersion", api.get_version);
    resolve_symbol(library, library_name, "ncclGetUniqueId", api.get_unique_id);
    resolve_symbol(library, library_name, "ncclCommInitRank", api.comm_init_rank);
    resolve_symbol(library, library_name, "ncclCommInitAll", api.comm_init_all);
    resolve_symbol(library, library_name, "ncclCommDestroy", api.comm_destroy);
    resolve_symbol(library, library_name, "ncclCommAbort", api.comm_abort);
    resolve_symbol(library, library_name, "ncclAllGather", api.all_gather);
    resolve_symbol(library, library_name, "ncclBroadcast", api.broadcast);
    resolve_symbol(library, library_name, "ncclGroupStart", api.group_start);
    resolve_symbol(library, library_name, "ncclGroupEnd", api.group_end);
    resolve_symbol(library, library_name, "ncclGetErrorString", api.error_string);
    resolve_if_present(library, "ncclMemAlloc", api.mem_alloc);
    resolve_if_present(library, "ncclMemFree", api.mem_free);
    resolve_if_present(library, "ncclCommWindowRegister", api.comm_window_register);
    resolve_if_present(library, "ncclCommWindowDeregister", api.comm_window_deregister);
    return api;
  } catch (const transport::library_load_error& error) {
    throw nccl_error(std::string("NCCL: ") + error.what());
  }
}

}  // namespace

const nccl_library& nccl() {
  static const nccl_library api = load();
  return api;
}

std::string nccl_version() {
  int code = 0;
  HANDOFF_NCCL_CHECK(nccl().get_version(&code));
  // From NCCL 2.9 the code is major * 10000 + minor * 100 + patch.
  return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
         std::to_string(code % 100);
}

void throw_on_nccl_error(ncclResult_t status, const char* call, const char* file, int line) {
  if (status == ncclSuccess) return;
  throw nccl_error(std::string(file) + ":" + std::to_string(line) + ": " + call +
                   " failed: " + nccl().error_string(status));
}

std::string nccl_windows_unavailable_reason() {
  const auto& api = nccl();
  if (api.mem_alloc && api.mem_free && api.comm_window_register && api.comm_window_deregister) {
    return {};
  }
  return "symmetric windows need NCCL 2.27 or later; the loaded NCCL is " + nccl_version();
}

nccl_group::nccl_group() {
  HANDOFF_NCCL_CHECK(nccl().group_start());
}

nccl_group::~nccl_group() noexcept(false) {
  const ncclResult_t status = nccl().group_end();
  if (std::uncaught_exceptions() == 0) HANDOFF_NCCL_CHECK(status);
}

}  // namespace handoff::patterns::multi_gpu
