// gpu_transfers: the recipe as seed 000 writes it: pageable copies in, the kernel, a pageable copy
// out, all on the session's stream and timed with CUDA events around them.

#include <vector>

#include "device_copies.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

class gpu_transfers_session final : public vector_add_session {
 public:
  explicit gpu_transfers_session(const vector_add_point& at)
      : inputs_(seeded_vector_add_inputs(at.count)),
        device_a_(at.count),
        device_b_(at.count),
        device_out_(at.count),
        out_(at.count) {}

  run_result run(vector_add_case&) override {
    copy_to_device(device_a_.data(), inputs_->a, stream());
    copy_to_device(device_b_.data(), inputs_->b, stream());
    launch_vector_add(device_a_.data(), device_b_.data(), device_out_.data(), out_.size(),
                      stream());
    copy_to_host(out_, device_out_.data(), stream());
    return {};
  }
  void poison(vector_add_case&) override {
    reference::poison(out_);
    poison_device(device_out_, stream());
    stream_.synchronize();
  }
  reference::verification_result verify(const vector_add_case& work) const override {
    stream_.synchronize();
    return work.verify_sum(out_);
  }
  cudaStream_t stream() const override { return stream_.get(); }

 private:
  std::shared_ptr<const vector_add_inputs> inputs_;
  handoff::stream stream_;
  device_buffer<float> device_a_, device_b_, device_out_;
  std::vector<float> out_;
};

std::unique_ptr<vector_add_session> set_up_gpu_transfers(const vector_add_point& at,
                                                         compute_target) {
  return std::make_unique<gpu_transfers_session>(at);
}

floor_terms pageable_transfers_floor(const vector_add_point& at, compute_target,
                                     const measured_run&) {
  return vector_add_transfers_floor(at.count, ceiling::h2d_pageable, ceiling::d2h_pageable);
}

}  // namespace

constinit const vector_add_row gpu_transfers_variant{
    .name = "gpu_transfers",
    .description = "pageable copies to the device and back around the kernel",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .reports_stages = false,
    .setup = set_up_gpu_transfers,
    .floor = pageable_transfers_floor};

}  // namespace handoff::patterns::elementwise
