#pragma once
// NCCL, loaded on first use with dlopen rather than linked (shared_library.hpp says why: the
// library is over 200 MB, and every worker process this executable starts would map it). The
// functions take the header's own declarations, so a mismatch with the installed NCCL is a
// compile error. Built only where configure found NCCL (HANDOFF_HAVE_NCCL).

#include <nccl.h>

#include <stdexcept>
#include <string>

namespace handoff::patterns::multi_gpu {

class nccl_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct nccl_library {
  decltype(&ncclGetVersion) get_version;
  decltype(&ncclGetUniqueId) get_unique_id;
  decltype(&ncclCommInitRank) comm_init_rank;
  decltype(&ncclCommInitAll) comm_init_all;
  decltype(&ncclCommDestroy) comm_destroy;
  decltype(&ncclCommAbort) comm_abort;
  decltype(&ncclAllGather) all_gather;
  decltype(&ncclBroadcast) broadcast;
  decltype(&ncclGroupStart) group_start;
  decltype(&ncclGroupEnd) group_end;
  decltype(&ncclGetErrorString) error_string;
  // NCCL 2.27 and later (symmetric memory); null where the loaded library is older.
  decltype(&ncclMemAlloc) mem_alloc;
  decltype(&ncclMemFree) mem_free;
  decltype(&ncclCommWindowRegister) comm_window_register;
  decltype(&ncclCommWindowDeregister) comm_window_deregister;
};

// libnccl.so.<major>; a library that cannot be loaded, or lacks a function, is nccl_error.
const nccl_library& nccl();

// "2.28.9", from the loaded library.
std::string nccl_version();

void throw_on_nccl_error(ncclResult_t status, const char* call, const char* file, int line);

// Why the loaded NCCL cannot register symmetric windows (older than 2.27); empty when it can.
std::string nccl_windows_unavailable_reason();

// ncclGroupStart for the scope: ends the group even when a call inside it throws, so that NCCL is
// never left mid-group.
class nccl_group {
 public:
  nccl_group();
  nccl_group(const nccl_group&) = delete;
  nccl_group& operator=(const nccl_group&) = delete;
  ~nccl_group() noexcept(false);
};

}  // namespace handoff::patterns::multi_gpu

#define HANDOFF_NCCL_CHECK(call) \
  ::handoff::patterns::multi_gpu::throw_on_nccl_error((call), #call, __FILE__, __LINE__)
