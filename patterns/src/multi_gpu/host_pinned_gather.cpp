// host_gather_pinned: the host gather done the fast way. Each device copies its parts from its own
// stream straight to their places in one pinned array, so the devices' links run at once and no
// concatenation follows.

#include "handoff/cuda_check.hpp"
#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

class host_pinned_gather final : public device_gather {
 public:
  explicit host_pinned_gather(const partitioned_devices& devices)
      : result_(devices.plan().elements) {}

  void poison() override { reference::poison(result_.span()); }

  void enqueue(partitioned_devices& devices) override {
    for (auto& slot : devices.slots()) {
      const scoped_device on_device(slot.ordinal);
      for (const auto& part : slot.parts) {
        if (part.count == 0) continue;
        HANDOFF_CUDA_CHECK(
            cudaMemcpyAsync(result_.data() + part.offset, slot.output_data() + part.local_offset,
                            part.count * sizeof(float), cudaMemcpyDeviceToHost, slot.stream.get()));
      }
    }
  }

  std::vector<reference::host_vector<float>> results() const override {
    return {reference::host_vector<float>(result_.data(), result_.data() + result_.size())};
  }

 private:
  pinned_buffer<float> result_;
};

}  // namespace

std::unique_ptr<device_gather> make_host_pinned_gather(const partitioned_devices& devices) {
  return std::make_unique<host_pinned_gather>(devices);
}

session_ptr set_up_host_gather_pinned(const multi_gpu_point& at, compute_target) {
  auto setup = shared_setup_for(at.config);
  auto gather = make_host_pinned_gather(*setup->devices);
  return std::make_unique<gather_session>(std::move(setup), at.scope, gather_kind::host_pinned,
                                          std::move(gather), "host_gather_pinned");
}

constinit const multi_gpu_row host_gather_pinned_variant{
    .name = "host_gather_pinned",
    .description = "every device copies into one pinned array at once",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_host_gather_pinned,
    .floor = floor_of<gather_kind::host_pinned>,
    .measured_at = at_the_headline_gather,
    .family = "host_gather"};

}  // namespace handoff::patterns::multi_gpu
