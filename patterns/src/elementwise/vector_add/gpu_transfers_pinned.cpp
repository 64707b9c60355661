// gpu_transfers_pinned: the same hand-off from page-locked host memory, which the copy engines read
// and write directly. The inputs are copied into it at set-up, outside the timed region.

#include <algorithm>

#include "device_copies.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

class gpu_transfers_pinned_session final : public vector_add_session {
 public:
  explicit gpu_transfers_pinned_session(const vector_add_point& at)
      : a_(at.count),
        b_(at.count),
        out_(at.count),
        device_a_(at.count),
        device_b_(at.count),
        device_out_(at.count) {
    const auto inputs = seeded_vector_add_inputs(at.count);
    std::ranges::copy(inputs->a, a_.data());
    std::ranges::copy(inputs->b, b_.data());
  }

  run_result run(vector_add_case&) override {
    copy_to_device(device_a_.data(), a_.span(), stream());
    copy_to_device(device_b_.data(), b_.span(), stream());
    launch_vector_add(device_a_.data(), device_b_.data(), device_out_.data(), out_.size(),
                      stream());
    copy_to_host(out_.span(), device_out_.data(), stream());
    return {};
  }
  void poison(vector_add_case&) override {
    reference::poison(out_.span());
    poison_device(device_out_, stream());
    stream_.synchronize();
  }
  reference::verification_result verify(const vector_add_case& work) const override {
    stream_.synchronize();
    return work.verify_sum(out_.span());
  }
  cudaStream_t stream() const override { return stream_.get(); }

 private:
  handoff::stream stream_;
  pinned_buffer<float> a_, b_, out_;
  device_buffer<float> device_a_, device_b_, device_out_;
};

std::unique_ptr<vector_add_session> set_up_gpu_transfers_pinned(const vector_add_point& at,
                                                                compute_target) {
  return std::make_unique<gpu_transfers_pinned_session>(at);
}

floor_terms pinned_transfers_floor(const vector_add_point& at, compute_target,
                                   const measured_run&) {
  return vector_add_transfers_floor(at.count, ceiling::h2d_pinned, ceiling::d2h_pinned);
}

}  // namespace

constinit const vector_add_row gpu_transfers_pinned_variant{
    .name = "gpu_transfers_pinned",
    .description = "pinned copies to the device and back around the kernel",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .reports_stages = false,
    .setup = set_up_gpu_transfers_pinned,
    .floor = pinned_transfers_floor};

}  // namespace handoff::patterns::elementwise
