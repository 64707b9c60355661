#include "handoff/patterns/postproc_split/pooled_split_session.hpp"

#include <algorithm>
#include <chrono>

#include "handoff/patterns/postproc_split/post_floor.hpp"

namespace handoff::patterns::postproc_split {

split_setup setup_for(const split_point& at) {
  return {.workers = at.workers,
          .chunks = at.chunks,
          .patience = std::chrono::seconds(60),
          .name = "postproc_split"};
}

pooled_split_session::pooled_split_session(make_split make, const split_setup& setup,
                                           std::size_t count)
    : make_(make), setup_(checked(setup, count)), count_(count) {}

pooled_split_session::~pooled_split_session() = default;

pooled_split& pooled_split_session::split_for(const split_case& work) {
  const auto c = work.computed();
  if (!split_ || split_->c().values.data() != c.values.data() ||
      split_->c().values.size() != c.values.size() || split_->c().target != c.target) {
    // Its pool shuts down as its user's would (a worker that ended badly is an error here), and
    // it and its segment go before the new ones start.
    if (split_) split_->shutdown();
    split_.reset();
    split_ = make_(c, setup_);
    peers_.clear();
    for (std::size_t index = 0; index < split_->pool().size(); ++index)
      peers_.push_back(split_->pool().worker_pid(index));
  }
  return *split_;
}

run_result pooled_split_session::run(split_case& work) {
  try {
    auto& split = split_for(work);
    auto result = split.run();
    work.deliver(split.result());
    return result;
  } catch (...) {
    work.forget_runs();
    throw;
  }
}

void pooled_split_session::poison(split_case& work) {
  work.poison();
  if (split_) split_->poison();
}

std::vector<pid_t> pooled_split_session::peers() const {
  return peers_;
}

std::vector<named_figure> pooled_split_session::figures() const {
  const std::size_t chunks = std::max<std::size_t>(1, setup_.chunks);
  return {{one_thread_sum_figure, one_thread_sum_seconds(count_, (count_ + chunks - 1) / chunks)}};
}

void pooled_split_session::shutdown() {
  if (split_) split_->shutdown();
}

}  // namespace handoff::patterns::postproc_split
