// kernel_only: no gather. Each device runs the kernel over its parts and the results stay where
// they are, so the row's time is the kernels' alone (and the uploads', from_host): the scaling
// figure against gpus:1.

#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {

session_ptr set_up_kernel_only(const multi_gpu_point& at, compute_target) {
  return std::make_unique<gather_session>(shared_setup_for(at.config), at.scope, gather_kind::none,
                                          nullptr, "kernel_only");
}

constinit const multi_gpu_row kernel_only_variant{
    .name = "kernel_only",
    .description = "no gather: the results stay on their devices",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_kernel_only,
    .floor = floor_of<gather_kind::none>,
    .measured_at = on_the_scaling_curve,
    .family = "kernel_only",
    .specifics = {.runs = true}};

}  // namespace handoff::patterns::multi_gpu
