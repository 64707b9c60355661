// gpu_resident: the data already lives on the device (copied there at set-up): only the kernel
// runs. Its result is read back for the check, after the timed runs.

#include <vector>

#include "device_copies.hpp"
#include "handoff/patterns/ceiling_names.hpp"
#include "handoff/stream.hpp"
#include "handoff/vector_add.hpp"
#include "vector_add_rows.hpp"

namespace handoff::patterns::elementwise {
namespace {

class gpu_resident_session final : public vector_add_session {
 public:
  explicit gpu_resident_session(const vector_add_point& at)
      : device_a_(at.count), device_b_(at.count), device_out_(at.count), out_(at.count) {
    const auto inputs = seeded_vector_add_inputs(at.count);
    copy_to_device(device_a_.data(), inputs->a, stream());
    copy_to_device(device_b_.data(), inputs->b, stream());
    stream_.synchronize();
  }

  run_result run(vector_add_case&) override {
    launch_vector_add(device_a_.data(), device_b_.data(), device_out_.data(), out_.size(),
                      stream());
    return {};
  }
  void poison(vector_add_case&) override {
    poison_device(device_out_, stream());
    stream_.synchronize();
  }
  reference::verification_result verify(const vector_add_case& work) const override {
    reference::poison(out_);
    copy_to_host(out_, device_out_.data(), stream());
    stream_.synchronize();
    return work.verify_sum(out_);
  }
  cudaStream_t stream() const override { return stream_.get(); }

 private:
  handoff::stream stream_;
  device_buffer<float> device_a_, device_b_, device_out_;
  mutable std::vector<float> out_;  // the read-back of the check
};

std::unique_ptr<vector_add_session> set_up_gpu_resident(const vector_add_point& at,
                                                        compute_target) {
  return std::make_unique<gpu_resident_session>(at);
}

floor_terms resident_floor(const vector_add_point& at, compute_target, const measured_run&) {
  floor_terms floor;
  floor.add_bytes(ceiling::device_copy, vector_add_bytes(at.count))
      .add_events(ceiling::launch_async, 1);
  return floor;
}

}  // namespace

constinit const vector_add_row gpu_resident_variant{
    .name = "gpu_resident",
    .description = "the kernel alone, the data already on the device",
    .targets = on_device,
    .clock = clock_kind::cuda_events,
    .reports_stages = false,
    .setup = set_up_gpu_resident,
    .floor = resident_floor};

}  // namespace handoff::patterns::elementwise
