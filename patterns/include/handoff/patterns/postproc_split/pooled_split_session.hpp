#pragma once
// The session every process variant of postproc_split runs through: one pooled_split, built on the
// first run from where that run's case holds c (set-up cannot see the case, and c must not be
// copied), rebuilt if a later case holds c elsewhere. The first run is the driver's untimed warm-up
// for a warm figure, and part of the timed set-up plus run for a cold one, as constructing the
// variant always was. The setup is checked at once, so a bad one fails set-up, not a run.

#include <sys/types.h>

#include <memory>
#include <vector>

#include "handoff/patterns/postproc_split/pooled_split.hpp"
#include "handoff/patterns/postproc_split/split_case.hpp"
#include "handoff/patterns/variant.hpp"

namespace handoff::patterns::postproc_split {

// Patience and names of the pools the table's rows start.
split_setup setup_for(const split_point& at);

// The set-up of a row whose variant is Split, a pooled_split constructed from c and the setup.
template <class Split>
std::unique_ptr<session<split_case>> set_up_pooled_split(const split_point& at);

class pooled_split_session final : public session<split_case> {
 public:
  using make_split = std::unique_ptr<pooled_split> (*)(computed_result c, const split_setup& setup);

  pooled_split_session(make_split make, const split_setup& setup, std::size_t count);
  ~pooled_split_session() override;

  run_result run(split_case& work) override;
  void poison(split_case& work) override;
  std::vector<pid_t> peers() const override;
  // one_thread_sum_seconds: the yardstick the floor's post share comes from (post_floor.hpp).
  std::vector<named_figure> figures() const override;
  void shutdown() override;

  // The variant as the last run left it (its partial sums), or nullptr before the first run.
  const pooled_split* split() const noexcept { return split_.get(); }

 private:
  pooled_split& split_for(const split_case& work);

  make_split make_;
  split_setup setup_;
  std::size_t count_;
  std::unique_ptr<pooled_split> split_;
  std::vector<pid_t> peers_;  // kept after shutdown, which empties the pool
};

template <class Split>
std::unique_ptr<session<split_case>> set_up_pooled_split(const split_point& at) {
  const pooled_split_session::make_split make = [](computed_result c, const split_setup& setup) {
    return std::unique_ptr<pooled_split>(std::make_unique<Split>(c, setup));
  };
  return std::make_unique<pooled_split_session>(make, setup_for(at), at.count);
}

}  // namespace handoff::patterns::postproc_split
