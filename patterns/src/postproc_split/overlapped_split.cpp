// overlapped: as shm, but the segment is page-locked and c comes back copy by copy (each chunk cut
// into copies, each copy into pieces, see pipeline_pieces), asynchronously: the workers get the
// pieces of copy k as soon as it has landed, while copy k + 1 is still on the bus. Its partial sums
// add its pieces' sums, so they can differ from a chunk summed whole in the last bits.
//
// Floor: the slower of d2h (4N, pinned: the segment is registered) and post / the workers that can
// sum at once (no more than its pieces), which overlap.

#include <optional>
#include <vector>

#include "handoff/host_registration.hpp"
#include "handoff/patterns/postproc_split/chunked_copy_back.hpp"
#include "handoff/patterns/postproc_split/pooled_split_session.hpp"
#include "handoff/patterns/postproc_split/post_floor.hpp"
#include "segment_floats.hpp"
#include "variant_rows.hpp"

namespace handoff::patterns::postproc_split {
namespace {

class overlapped_split final : public pooled_split {
 public:
  overlapped_split(computed_result c, const split_setup& setup)
      : pooled_split(c, setup),
        plan_(pipeline_pieces(chunks_, setup.workers)),
        segment_(segment_for(c.values.size(), setup.name)),
        // Copies queued well ahead of every request the workers can have in flight.
        copier_(c, floats_of(segment_, c.values.size()), plan_.copies,
                2 * setup.workers * summing_pool::queued_shared_requests) {
    // Page-locked, so that each copy is asynchronous and runs at the pinned rate.
    if (c.target == compute_target::device) registration_.emplace(segment_.bytes());
    pool_.attach(segment_);
  }

  void poison() override { poison_result(floats_of(segment_, c_.values.size())); }

  run_result run() override {
    run_result batch;
    copier_.start();
    const auto piece_sums = pool_.sum_in_segment(
        plan_.pieces, batch.stages,
        [this](std::size_t piece) { copier_.await(plan_.copy_of_piece[piece]); });
    batch.stages.d2h += copier_.finish();
    std::vector<double> partials(chunks_.size(), 0.0);
    for (std::size_t index = 0; index < piece_sums.size(); ++index)
      partials[plan_.chunk_of_piece[index]] += piece_sums[index];
    finish(std::move(partials));
    return batch;
  }

 private:
  piece_plan plan_;
  // Destroyed in reverse: the copies are waited for, then the pages unlocked, then unmapped.
  transport::shared_memory_segment segment_;
  std::optional<host_registration> registration_;
  chunked_copy_back copier_;
};

}  // namespace

split_session set_up_overlapped_split(const split_point& at, compute_target) {
  return set_up_pooled_split<overlapped_split>(at);
}

floor_terms overlapped_split_floor(const split_point& at, compute_target target,
                                   const measured_run& run) {
  const std::size_t pieces =
      at.count == 0 ? 0
                    : pipeline_pieces(array_split(at.count, at.chunks), at.workers).pieces.size();
  auto floor = floor_terms{}
                   .add_seconds("post", shared_post_seconds(at.count, run, at.workers, pieces))
                   .add_bytes(copy_back_ceiling(target, true),
                              static_cast<double>(at.count * sizeof(float)));
  floor.overlapped = true;
  return floor;
}

constinit const split_row overlapped_variant{
    .name = "overlapped",
    .description = "chunk k+1 comes back while the CPU pool sums chunk k",
    .targets = pooled,
    .clock = clock_kind::wall,
    .cold = cold_kind::fresh_setup,
    .setup = set_up_overlapped_split,
    .floor = overlapped_split_floor};

}  // namespace handoff::patterns::postproc_split
