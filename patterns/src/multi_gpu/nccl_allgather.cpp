// The set-ups of nccl_allgather and nccl_allgather_window (nccl_gather.cpp is the gather itself):
// one communicator per device of this process, from ncclCommInitAll; the window row gathers into
// NCCL symmetric windows (nccl_windows.hpp). Built with or without NCCL, so that the table always
// has the rows; without it the set-ups refuse by name.

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

std::string nccl_windows_unavailable() {
  if (auto reason = nccl_unavailable_reason(); !reason.empty()) return reason;
#ifdef HANDOFF_HAVE_NCCL
  return nccl_windows_unavailable_reason();
#else
  return {};
#endif
}

namespace {

#ifdef HANDOFF_HAVE_NCCL
session_ptr set_up_nccl(const multi_gpu_point& at, nccl_result_memory memory,
                        std::string_view variant) {
  auto setup = shared_setup_for(at.config);
  auto gather =
      make_nccl_gather(*setup->devices, nccl_communicators::for_devices(*setup->devices), memory);
  return std::make_unique<gather_session>(std::move(setup), at.scope, gather_kind::nccl,
                                          std::move(gather), variant);
}
#endif

}  // namespace

session_ptr set_up_nccl_allgather(const multi_gpu_point& at, compute_target) {
#ifdef HANDOFF_HAVE_NCCL
  return set_up_nccl(at, nccl_result_memory::device, "nccl_allgather");
#else
  (void)at;
  throw std::runtime_error("nccl_allgather: " + nccl_unavailable_reason());
#endif
}

session_ptr set_up_nccl_allgather_window(const multi_gpu_point& at, compute_target) {
#ifdef HANDOFF_HAVE_NCCL
  return set_up_nccl(at, nccl_result_memory::symmetric_window, "nccl_allgather_window");
#else
  (void)at;
  throw std::runtime_error("nccl_allgather_window: " + nccl_unavailable_reason());
#endif
}

namespace {

std::string nccl_missing(int) {
  return nccl_unavailable_reason();
}
std::string nccl_windows_missing(int) {
  return nccl_windows_unavailable();
}

}  // namespace

constinit const multi_gpu_row nccl_allgather_variant{
    .name = "nccl_allgather",
    .description = "every device ends with the whole array (ncclAllGather)",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_nccl_allgather,
    .floor = floor_of<gather_kind::nccl>,
    .measured_at = at_the_headline_gather,
    .unavailable_reason = nccl_missing,
    .min_gpus = 2,
    .family = "nccl_allgather",
    .specifics = {.runs = true, .gather = gather_kind::nccl}};

constinit const multi_gpu_row nccl_allgather_window_variant{
    .name = "nccl_allgather_window",
    .description = "the same, in place, in NCCL symmetric windows",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_nccl_allgather_window,
    .floor = floor_of<gather_kind::nccl>,
    .measured_at = at_the_headline_gather,
    .unavailable_reason = nccl_windows_missing,
    .min_gpus = 2,
    .family = "nccl_allgather_window",
    .specifics = {
        .runs = true, .gather = gather_kind::nccl, .memory = nccl_result_memory::symmetric_window}};

}  // namespace handoff::patterns::multi_gpu
