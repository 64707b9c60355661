// nccl_allgather's set-up (nccl_gather.cpp is the gather itself): one communicator per device of
// this process, from ncclCommInitAll. Built with or without NCCL, so that the table always has
// the row; without it the set-up refuses by name.

#include <stdexcept>

#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "rows.hpp"
#ifdef HANDOFF_HAVE_NCCL
#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#include "handoff/patterns/multi_gpu/nccl_library.hpp"
#endif

namespace handoff::patterns::multi_gpu {

std::string nccl_unavailable_reason() {
#ifdef HANDOFF_HAVE_NCCL
  try {
    (void)nccl();
    return {};
  } catch (const std::exception& error) {
    return error.what();
  }
#else
  return "this build has no NCCL (configure did not find nccl.h and libnccl)";
#endif
}

session_ptr set_up_nccl_allgather(const multi_gpu_point& at, compute_target) {
#ifdef HANDOFF_HAVE_NCCL
  auto setup = shared_setup_for(at.config);
  auto gather = make_nccl_gather(*setup->devices, nccl_communicators::for_devices(*setup->devices));
  return std::make_unique<gather_session>(std::move(setup), at.scope, gather_kind::nccl,
                                          std::move(gather));
#else
  (void)at;
  throw std::runtime_error("nccl_allgather: " + nccl_unavailable_reason());
#endif
}

}  // namespace handoff::patterns::multi_gpu
