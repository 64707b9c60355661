#include <algorithm>

#include "device_datasets.hpp"
#include "device_floor.hpp"
#include "device_session.hpp"
#include "handoff/patterns/independent_tasks/device_variants.hpp"
#include "handoff/sum_of_squares.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::independent_tasks {

namespace {

std::size_t longest_of(const dataset_batch& batch) {
  std::size_t longest = 0;
  for (std::size_t index = 0; index < batch.size(); ++index)
    longest = std::max(longest, batch.dataset(index).size());
  return longest;
}

}  // namespace

batched_reduction::batched_reduction(const dataset_batch& batch, data_location where)
    : data_(std::make_unique<device_datasets>(batch, where)),
      longest_dataset_(longest_of(batch)),
      temp_(segmented_sum_of_squares_temp_bytes(batch.size(), longest_dataset_)) {
  prepare_segmented_sum_of_squares_temp(temp_.data(), temp_.size(), data_->stream());
}

batched_reduction::~batched_reduction() = default;

cudaStream_t batched_reduction::stream() const noexcept {
  return data_->stream();
}

void batched_reduction::poison_output() {
  data_->poison();
}

void batched_reduction::enqueue() {
  enqueue_upload();
  enqueue_reduction();
  enqueue_download();
}

void batched_reduction::enqueue_upload() {
  if (data_->where() == data_location::host) data_->enqueue_upload_all();
}

void batched_reduction::enqueue_reduction() {
  launch_segmented_sum_of_squares(data_->device_values(), data_->device_offsets(),
                                  data_->datasets(), longest_dataset_, data_->device_sums(),
                                  temp_.data(), temp_.size(), data_->stream());
}

void batched_reduction::enqueue_download() {
  if (data_->where() == data_location::host) data_->enqueue_download_sums();
}

std::vector<float> batched_reduction::result() {
  return data_->result();
}

}  // namespace handoff::patterns::independent_tasks

// The session: batched's steps run one after the other on one stream, so its copies and its
// reduction are stages of their own. A resident run is its one launch and nothing else, so it is
// the kernel stage as a whole, timed by the driver's own start and stop events: with no marks.
// Every event recorded inside the timed region, and the read of the last run's marks at the start
// of the next, costs its host time there, which a GPU idle between runs waits for: elementwise's
// resident square, marked so around its one launch, read well above the unmarked resident vector
// add. (figures: docs/design/measured-along-the-way.md, "Why a resident batched run has no marks")
namespace handoff::patterns::independent_tasks {
namespace {

std::vector<stage_member> stages_of(data_location where) {
  if (where == data_location::host)
    return {&stage_times::h2d, &stage_times::kernel, &stage_times::d2h};
  return {};  // the whole run is the kernel stage
}

class batched_session final : public device_session<batched_reduction> {
 public:
  explicit batched_session(const task_point& at)
      : device_session<batched_reduction>(at, stages_of(at.where)), copies_(at.where) {}

 private:
  void enqueue_marked(batched_reduction& variant, const stage_marks& marks) override {
    if (copies_ != data_location::host) {
      variant.enqueue_reduction();  // no marks: the whole run is the kernel stage
      return;
    }
    marks.mark(0, variant.stream());
    variant.enqueue_upload();
    marks.mark(1, variant.stream());
    variant.enqueue_reduction();
    marks.mark(2, variant.stream());
    variant.enqueue_download();
    marks.mark(3, variant.stream());
  }

  data_location copies_;
};

}  // namespace

task_session set_up_batched(const task_point& at, compute_target) {
  return std::make_unique<batched_session>(at);
}

task_floor batched_floor(const task_point& at, compute_target, const measured_run&) {
  const double offsets = static_cast<double>((at.datasets + 1) * sizeof(std::int64_t));
  return device_variant_floor(at, 1.0, false, offsets);
}

constinit const task_row batched_variant{
    .name = "batched",
    .description = "one launch reduces every dataset, a CUB block reduction each",
    .targets = device_only,
    .clock = clock_kind::cuda_events,
    .cold = cold_kind::none,
    .setup = set_up_batched,
    .floor = batched_floor};

}  // namespace handoff::patterns::independent_tasks
