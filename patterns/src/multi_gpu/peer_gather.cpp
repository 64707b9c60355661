// p2p_gather: every device copies its parts into one array on the hub, the slot of rank 0, over
// the peer link. Peer access is enabled both ways between the hub and each other device for the
// gather's life; without it cudaMemcpyPeer would quietly stage through the host, which is
// p2p_peer_access_off's figure, not this variant's, so a topology that lacks it is refused.

#include "handoff/bounded_wait.hpp"
#include "handoff/cuda_check.hpp"
#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/gathers.hpp"
#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/reference/host_vector.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/scoped_device.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

std::vector<std::pair<int, int>> hub_and_peers(const partitioned_devices& devices) {
  std::vector<std::pair<int, int>> pairs;
  const int hub = devices.slots().front().ordinal;
  for (const auto& slot : devices.slots()) {
    if (slot.ordinal == hub) continue;
    pairs.emplace_back(hub, slot.ordinal);
    pairs.emplace_back(slot.ordinal, hub);
  }
  return pairs;
}

device_buffer<float> on_device(int ordinal, std::size_t elements) {
  const scoped_device on_hub(ordinal);
  return device_buffer<float>(elements);
}

class peer_gather final : public device_gather {
 public:
  explicit peer_gather(const partitioned_devices& devices)
      : access_(hub_and_peers(devices)),
        hub_(devices.slots().front().ordinal),
        result_(on_device(hub_, devices.plan().elements)) {
    if (devices.slots().front().rank != 0 ||
        static_cast<int>(devices.slots().size()) != devices.plan().devices) {
      throw std::invalid_argument("p2p_gather needs every device of the plan in this process");
    }
  }

  void poison() override {
    if (result_.size() == 0) return;
    const scoped_device on_hub(hub_);
    HANDOFF_CUDA_CHECK(cudaMemset(result_.data(), reference::poison_byte, result_.size_bytes()));
    wait_for_default_stream(
        {.variant = "p2p_gather", .stage = "poisoning the gathered copy", .device = hub_});
  }

  void enqueue(partitioned_devices& devices) override {
    for (auto& slot : devices.slots()) {
      const scoped_device on_device(slot.ordinal);
      for (const auto& part : slot.parts) {
        if (part.count == 0) continue;
        float* destination = result_.data() + part.offset;
        const float* source = slot.output_data() + part.local_offset;
        const std::size_t bytes = part.count * sizeof(float);
        if (slot.ordinal == hub_) {
          HANDOFF_CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, cudaMemcpyDeviceToDevice,
                                             slot.stream.get()));
        } else {
          HANDOFF_CUDA_CHECK(cudaMemcpyPeerAsync(destination, hub_, source, slot.ordinal, bytes,
                                                 slot.stream.get()));
        }
      }
    }
  }

  std::vector<reference::host_vector<float>> results() const override {
    reference::host_vector<float> copy(result_.size());
    HANDOFF_CUDA_CHECK(
        cudaMemcpy(copy.data(), result_.data(), result_.size_bytes(), cudaMemcpyDefault));
    return {std::move(copy)};
  }

 private:
  scoped_peer_access access_;
  int hub_;
  device_buffer<float> result_;
};

}  // namespace

std::unique_ptr<device_gather> make_peer_gather(const partitioned_devices& devices) {
  return std::make_unique<peer_gather>(devices);
}

session_ptr set_up_p2p_gather(const multi_gpu_point& at, compute_target) {
  auto setup = shared_setup_for(at.config);
  auto gather = make_peer_gather(*setup->devices);
  return std::make_unique<gather_session>(std::move(setup), at.scope, gather_kind::peer,
                                          std::move(gather), "p2p_gather");
}

namespace {

std::string peer_access_missing(int gpus) {
  return peer_access_unavailable_reason(peer_access_matrix(gpus), 0, gpus);
}

}  // namespace

constinit const multi_gpu_row p2p_gather_variant{
    .name = "p2p_gather",
    .description = "every device copies into GPU 0 over the peer link",
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_p2p_gather,
    .floor = floor_of<gather_kind::peer>,
    .measured_at = at_the_headline_gather,
    .unavailable_reason = peer_access_missing,
    .min_gpus = 2,
    .family = "p2p_gather"};

}  // namespace handoff::patterns::multi_gpu
