#include "handoff/patterns/multi_gpu/nccl_library.hpp"

#include "handoff/transport/shared_library.hpp"

namespace handoff::patterns::multi_gpu {

using transport::resolve_symbol;

namespace {

const std::string library_name = "libnccl.so." + std::to_string(NCCL_MAJOR);

nccl_library load() {
  try {
    void* library = transport::open_shared_library(library_name, HANDOFF_NCCL_LIBRARY_DIR);
    nccl_library api{};
    resolve_symbol(library, library_name, "ncclGetVersion", api.get_version);
    resolve_symbol(library, library_name, "ncclGetUniqueId", api.get_unique_id);
    resolve_symbol(library, library_name, "ncclCommInitRank", api.comm_init_rank);
    resolve_symbol(library, library_name, "ncclCommInitAll", api.comm_init_all);
    resolve_symbol(library, library_name, "ncclCommDestroy", api.comm_destroy);
    resolve_symbol(library, library_name, "ncclAllGather", api.all_gather);
    resolve_symbol(library, library_name, "ncclBroadcast", api.broadcast);
    resolve_symbol(library, library_name, "ncclGroupStart", api.group_start);
    resolve_symbol(library, library_name, "ncclGroupEnd", api.group_end);
    resolve_symbol(library, library_name, "ncclGetErrorString", api.error_string);
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

}  // namespace handoff::patterns::multi_gpu
