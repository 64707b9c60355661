// shm: c comes back into a shared-memory segment every worker has mapped; only offsets travel.
//
// Floor: d2h of c into the segment (4N, pageable: the segment is not page-locked), then post / the
// workers that can sum at once (no more than the chunks).

#include <algorithm>
#include <string>

#include "handoff/patterns/postproc_split/pooled_split_session.hpp"
#include "handoff/patterns/postproc_split/post_floor.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/transport/shared_memory_segment.hpp"
#include "handoff/wall_clock.hpp"
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

  void poison() override {
    poison_result();
    reference::poison(floats_of(segment_, c_.values.size()));
  }

  run_result run() override {
    run_result batch;
    const auto start = wall_clock::now();
    copy_back(c_, floats_of(segment_, c_.values.size()));
    batch.stages.d2h += seconds_since(start);
    finish(pool_.sum_in_segment(chunks_, batch.stages));
    return batch;
  }

 private:
  transport::shared_memory_segment segment_;
};

std::unique_ptr<pooled_split> make_shm_split(computed_result c, const split_setup& setup) {
  return std::make_unique<shm_split>(c, setup);
}

}  // namespace

split_session set_up_shm_split(const split_point& at, compute_target) {
  return std::make_unique<pooled_split_session>(make_shm_split, setup_for(at), at.count);
}

floor_terms shm_split_floor(const split_point& at, compute_target target, const measured_run& run) {
  const double post = at.count == 0
                          ? 0.0
                          : one_thread_sum_seconds(run) /
                                static_cast<double>(concurrent_summers(at.workers, at.chunks));
  return floor_terms{}
      .add_seconds("post", post)
      .add_bytes(copy_back_ceiling(target, false), static_cast<double>(at.count * sizeof(float)));
}

}  // namespace handoff::patterns::postproc_split
