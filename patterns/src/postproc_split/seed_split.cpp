// seed: c comes back whole into pageable memory, np.array_split cuts it, and every chunk travels by
// value to a worker over its connection (pool.map(postprocess, chunks)).
//
// Floor: d2h of c (4N bytes, pageable), then the coordinator sending every chunk (4N), then the sum
// of the last chunk sent (the smallest), which cannot start before its last byte has arrived; the
// other chunks' sums overlap the sending, so adding all of post / workers would put the floor above
// what the seed can do.
//
// The sending is priced by who bounds it. To one worker it is one byte stream, the pipe ceiling's
// one writer and one reader. To several, the chunks go down several streams whose readers copy out
// in parallel, so the bound is the coordinator's one thread copying 4N bytes into the kernel: the
// one-thread copy ceiling. Priced at the one-pair pipe ceiling, the seed at 4 workers ran faster
// than its floor once its workers' hashing got faster (figures:
// docs/design/measured-along-the-way.md, "Which ceiling prices the seed's sending to its workers").

#include <vector>

#include "handoff/patterns/postproc_split/pooled_split_session.hpp"
#include "handoff/patterns/postproc_split/post_floor.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {
namespace {

class seed_split final : public pooled_split {
 public:
  seed_split(computed_result c, const split_setup& setup)
      : pooled_split(c, setup), host_c_(c.values.size()) {}

  void poison() override { poison_result(host_c_); }

  run_result run() override {
    run_result batch;
    timed_copy_back(host_c_, batch.stages);
    finish(pool_.sum_by_value(host_c_, chunks_, batch.stages));
    return batch;
  }

 private:
  std::vector<float> host_c_;  // pageable, like the recipe's np.zeros_like(a)
};

}  // namespace

split_session set_up_seed_split(const split_point& at, compute_target) {
  return set_up_pooled_split<seed_split>(at);
}

floor_terms seed_split_floor(const split_point& at, compute_target target,
                             const measured_run& run) {
  const double bytes = static_cast<double>(at.count * sizeof(float));
  const double post = at.count == 0
                          ? 0.0
                          : one_thread_sum_seconds(run) *
                                static_cast<double>(array_split(at.count, at.chunks).back().count) /
                                static_cast<double>(at.count);
  return floor_terms{}
      .add_seconds("post", post)
      .add_bytes(copy_back_ceiling(target, false), bytes)
      .add_bytes(at.workers > 1 ? ceiling::shm_memcpy : ceiling::pipe, bytes);
}

constinit const split_row seed_variant{
    .name = "seed",
    .description = "the whole result back to the host, its chunks sent by value to a CPU pool",
    .recipe = true,
    .targets = pooled,
    .clock = clock_kind::wall,
    .cold = cold_kind::fresh_setup,
    .setup = set_up_seed_split,
    .floor = seed_split_floor};

}  // namespace handoff::patterns::postproc_split
