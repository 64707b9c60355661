// shm: c comes back into a shared-memory segment every worker has mapped; only offsets travel.
//
// Floor: d2h of c into the segment (4N, pageable: the segment is not page-locked), then post / the
// workers that can sum at once (no more than the chunks).

#include "handoff/patterns/postproc_split/pooled_split_session.hpp"
#include "handoff/patterns/postproc_split/post_floor.hpp"
#include "handoff/transport/shared_memory_segment.hpp"
#include "segment_floats.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {
namespace {

class shm_split final : public pooled_split {
 public:
  shm_split(computed_result c, const split_setup& setup)
      : pooled_split(c, setup), segment_(segment_for(c.values.size(), setup.name)) {
    pool_.attach(segment_);
  }

  void poison() override { poison_result(floats_of(segment_, c_.values.size())); }

  run_result run() override {
    run_result batch;
    timed_copy_back(floats_of(segment_, c_.values.size()), batch.stages);
    finish(pool_.sum_in_segment(chunks_, batch.stages));
    return batch;
  }

 private:
  transport::shared_memory_segment segment_;
};

}  // namespace

split_session set_up_shm_split(const split_point& at, compute_target) {
  return set_up_pooled_split<shm_split>(at);
}

floor_terms shm_split_floor(const split_point& at, compute_target target, const measured_run& run) {
  return floor_terms{}
      .add_seconds("post", shared_post_seconds(at.count, run, at.workers, at.chunks))
      .add_bytes(copy_back_ceiling(target, false), static_cast<double>(at.count * sizeof(float)));
}

constinit const split_row shm_variant{
    .name = "shm",
    .description = "the CPU pool reads its chunks from shared memory",
    .targets = pooled,
    .clock = clock_kind::wall,
    .cold = cold_kind::fresh_setup,
    .setup = set_up_shm_split,
    .floor = shm_split_floor};

}  // namespace handoff::patterns::postproc_split
