// The multi_gpu table: one line per variant. Every row runs on the devices only (no host
// stand-in: the variants are the CUDA copies and collectives themselves) and times itself
// (variants.hpp says why). None has stages to tell apart: the copies and collectives are the run.

#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

constexpr runs_on devices_only{.device = true};
constexpr auto self = clock_kind::self;

std::string peer_access_missing(int gpus) {
  return peer_access_unavailable_reason(peer_access_matrix(gpus), 0, gpus);
}
std::string nccl_missing(int) {
  return nccl_unavailable_reason();
}
std::string nccl_windows_missing(int) {
  return nccl_windows_unavailable();
}

constexpr multi_gpu_row rows[] = {
    {.name = "kernel_only",
     .description = "no gather: the results stay on their devices",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_kernel_only,
     .floor = floor_of<gather_kind::none>},
    {.name = "kernel_only_threads",
     .description = "kernel_only launched from one host thread per device",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_kernel_only_threads,
     .floor = floor_of<gather_kind::none>},
    {.name = "kernel_only_host_join",
     .description = "kernel_only_threads joined on the host, timed on the host clock",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_kernel_only_host_join,
     .floor = floor_of<gather_kind::none>},
    {.name = "host_gather",
     .description = "one device after the other, synchronous pageable copies, concatenated",
     .recipe = true,
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_host_gather,
     .floor = floor_of<gather_kind::host_seed>},
    {.name = "host_gather_pinned",
     .description = "every device copies into one pinned array at once",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_host_gather_pinned,
     .floor = floor_of<gather_kind::host_pinned>},
    {.name = "p2p_gather",
     .description = "every device copies into GPU 0 over the peer link",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_p2p_gather,
     .floor = floor_of<gather_kind::peer>,
     .unavailable_reason = peer_access_missing},
    {.name = "nccl_allgather",
     .description = "every device ends with the whole array (ncclAllGather)",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_nccl_allgather,
     .floor = floor_of<gather_kind::nccl>,
     .unavailable_reason = nccl_missing},
    {.name = "nccl_allgather_window",
     .description = "the same into NCCL symmetric windows",
     .targets = devices_only,
     .clock = self,
     .reports_stages = false,
     .setup = set_up_nccl_allgather_window,
     .floor = floor_of<gather_kind::nccl>,
     .unavailable_reason = nccl_windows_missing},
};

}  // namespace

variant_table<multi_gpu_point, multi_gpu_case> multi_gpu_variants() {
  return rows;
}

std::string multi_gpu_unavailable_reason(std::string_view variant, int gpus) {
  return unavailable_reason_of(find_row(multi_gpu_variants(), variant), gpus);
}

}  // namespace handoff::patterns::multi_gpu
