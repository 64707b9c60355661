#include "handoff/patterns/multi_gpu/seed_host_gather.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "handoff/cuda_check.hpp"
#include "handoff/patterns/multi_gpu/launch_check.hpp"
#include "handoff/patterns/multi_gpu/multi_gpu_session.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/partitioned_elementwise.hpp"
#include "handoff/scoped_device.hpp"
#include "handoff/wall_clock.hpp"
#include "rows.hpp"

namespace handoff::patterns::multi_gpu {
namespace {

struct returned_piece {
  std::size_t offset = 0;
  std::size_t count = 0;
  // Like cp.asnumpy, a new array for every result, left uninitialised (np.empty) so that the copy
  // itself is what first touches its pages.
  std::unique_ptr<float[]> values;
};

}  // namespace

seed_host_gather::seed_host_gather(partitioned_devices& devices,
                                   std::span<const float> pageable_input)
    : devices_(devices), pageable_input_(pageable_input), result_(devices.plan().elements) {
  if (pageable_input.size() != devices.plan().elements) {
    throw std::invalid_argument("host_gather: the input does not match the plan's size");
  }
  if (static_cast<int>(devices.slots().size()) != devices.plan().devices) {
    throw std::invalid_argument("host_gather needs every device of the plan in this process");
  }
}

void seed_host_gather::poison() {
  reference::poison(result_);
}

void seed_host_gather::run(const user_kernel& kernel, run_scope scope) {
  std::vector<returned_piece> pieces;
  for (auto& slot : devices_.slots()) {
    const scoped_device on_device(slot.ordinal);
    const wait_site site{.variant = "host_gather", .stage = "run", .device = slot.ordinal};
    // A copy from pageable memory blocks the host until its stream reaches it, beyond any limit:
    // a stream that is still busy (stuck) is caught here first, within the limit.
    wait_for(slot.stream, site);
    if (scope == run_scope::from_host) {
      // cp.asarray copies on the current stream, the one the kernel then runs on. A plain
      // cudaMemcpy from pageable memory may return while its DMA is still landing, and a kernel
      // on a non-blocking stream would not wait for it: the tail of the input would still be
      // poison (seen at 2^20 elements).
      for (const auto& part : slot.parts) {
        HANDOFF_CUDA_CHECK(cudaMemcpyAsync(
            slot.input.data() + part.local_offset, pageable_input_.data() + part.offset,
            part.count * sizeof(float), cudaMemcpyHostToDevice, slot.stream.get()));
      }
    }
    if (scope != run_scope::gather) {
      checked_launch(kernel, slot.ordinal, slot.stream.get(), slot.input.data(), slot.output_data(),
                     slot.elements, reference::device_value_of(slot.rank));
      wait_for(slot.stream, site);
    }
    for (const auto& part : slot.parts) {
      returned_piece piece{part.offset, part.count,
                           std::make_unique_for_overwrite<float[]>(part.count)};
      HANDOFF_CUDA_CHECK(cudaMemcpy(piece.values.get(), slot.output_data() + part.local_offset,
                                    part.count * sizeof(float), cudaMemcpyDeviceToHost));
      pieces.push_back(std::move(piece));
    }
  }
  std::ranges::sort(pieces, {}, &returned_piece::offset);
  for (const auto& piece : pieces) {
    std::copy_n(piece.values.get(), piece.count,
                result_.begin() + static_cast<std::ptrdiff_t>(piece.offset));
  }
}

namespace {

// The article's loop is synchronous, so the wall clock times it.
class host_gather_session final : public multi_gpu_session {
 public:
  host_gather_session(const std::shared_ptr<partitioned_setup>& setup, run_scope scope)
      : multi_gpu_session(setup, scope, gather_kind::host_seed, "host_gather"),
        gather_(*setup->devices, setup->input) {}

  run_result run(multi_gpu_case& work) override {
    check_case(work);
    const auto start = wall_clock::now();
    gather_.run(setup().kernel, scope());
    const double seconds = seconds_since(start);
    count_run(seconds, {});
    return {.seconds = seconds, .stages = {}};
  }

  void poison(multi_gpu_case& work) override {
    gather_.poison();
    work.poison();
  }

  reference::verification_result verify(const multi_gpu_case&) const override {
    return reference::verify_elementwise(setup().expected, gather_.result(), setup().max_ulp);
  }

 private:
  seed_host_gather gather_;
};

}  // namespace

session_ptr set_up_host_gather(const multi_gpu_point& at, compute_target) {
  return std::make_unique<host_gather_session>(shared_setup_for(at.config), at.scope);
}

constinit const multi_gpu_row host_gather_variant{
    .name = "host_gather",
    .description = "one device after the other, synchronous pageable copies, concatenated",
    .recipe = true,
    .targets = devices_only,
    .clock = clock_kind::self,
    .reports_stages = false,
    .setup = set_up_host_gather,
    .floor = floor_of<gather_kind::host_seed>,
    .measured_at = at_the_headline_gather,
    .family = "host_gather"};

}  // namespace handoff::patterns::multi_gpu
