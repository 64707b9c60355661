#include "handoff/patterns/postproc_split/split_variants.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "handoff/host_registration.hpp"
#include "handoff/patterns/postproc_split/chunked_copy_back.hpp"
#include "handoff/patterns/shared_memory_segment.hpp"
#include "handoff/reference/inputs.hpp"

namespace handoff::patterns::postproc_split {
namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

const split_setup& checked(const split_setup& setup) {
  if (setup.workers == 0) throw std::invalid_argument("postproc_split: 0 workers");
  return setup;
}

// A segment is never empty (there would be nothing to map), so an empty c still gets one float.
shared_memory_segment segment_for(std::size_t floats, const std::string& name) {
  return shared_memory_segment::create_shareable(std::max<std::size_t>(floats, 1) * sizeof(float),
                                                 name);
}

std::span<float> floats_of(const shared_memory_segment& segment, std::size_t count) {
  return {reinterpret_cast<float*>(segment.bytes().data()), count};
}

class seed_split final : public pooled_split {
 public:
  seed_split(computed_result c, const split_setup& setup)
      : pooled_split(c, setup), host_c_(c.values.size()) {}

  void poison() override {
    poison_result();
    reference::poison(host_c_);
  }

  double run(stage_times& stages) override {
    const auto start = clock_type::now();
    copy_back(c_, host_c_);
    stages.d2h += seconds_since(start);
    return finish(pool_.sum_by_value(host_c_, chunks_, stages));
  }

 private:
  std::vector<float> host_c_;  // pageable, like the recipe's np.zeros_like(a)
};

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

  double run(stage_times& stages) override {
    const auto start = clock_type::now();
    copy_back(c_, floats_of(segment_, c_.values.size()));
    stages.d2h += seconds_since(start);
    return finish(pool_.sum_in_segment(chunks_, stages));
  }

 private:
  shared_memory_segment segment_;
};

// Pipelined in pieces (pipeline_pieces): piece k is summed while piece k + 1 is on the bus, and the
// pieces' partial sums are added, in order, into their chunk's.
class overlapped_split final : public pooled_split {
 public:
  overlapped_split(computed_result c, const split_setup& setup)
      : pooled_split(c, setup),
        plan_(pipeline_pieces(chunks_, setup.workers)),
        segment_(segment_for(c.values.size(), setup.name)),
        // Copies queued well ahead of every request the workers can have in flight.
        copier_(c, floats_of(segment_, c.values.size()), plan_.pieces,
                2 * setup.workers * summing_pool::queued_shared_requests) {
    // Page-locked, so that each piece's copy is asynchronous and runs at the pinned rate.
    if (c.target == compute_target::device) registration_.emplace(segment_.bytes());
    pool_.attach(segment_);
  }

  void poison() override {
    poison_result();
    reference::poison(floats_of(segment_, c_.values.size()));
  }

  double run(stage_times& stages) override {
    copier_.start();
    const auto piece_sums = pool_.sum_in_segment(
        plan_.pieces, stages, [this](std::size_t index) { copier_.await(index); });
    stages.d2h += copier_.finish();
    std::vector<double> partials(chunks_.size(), 0.0);
    for (std::size_t index = 0; index < piece_sums.size(); ++index)
      partials[plan_.chunk_of_piece[index]] += piece_sums[index];
    return finish(std::move(partials));
  }

 private:
  piece_plan plan_;
  // Destroyed in reverse: the copies are waited for, then the pages unlocked, then unmapped.
  shared_memory_segment segment_;
  std::optional<host_registration> registration_;
  chunked_copy_back copier_;
};

}  // namespace

std::string_view split_variant_name(split_variant variant) noexcept {
  switch (variant) {
    case split_variant::seed:
      return "seed";
    case split_variant::shm:
      return "shm";
    case split_variant::overlapped:
      return "overlapped";
  }
  return "unknown";
}

pooled_split::pooled_split(computed_result c, const split_setup& setup)
    : c_(c),
      chunks_(array_split(c.values.size(), checked(setup).chunks)),
      pool_(setup.workers, setup.patience, setup.name) {}

void pooled_split::poison_result() noexcept {
  result_ = std::numeric_limits<double>::quiet_NaN();
  std::ranges::fill(partials_, std::numeric_limits<double>::quiet_NaN());
}

double pooled_split::finish(std::vector<double> partials) {
  partials_ = std::move(partials);
  double sum = 0.0;
  for (const double partial : partials_)
    sum += partial;
  result_ = sum;
  return sum;
}

std::unique_ptr<pooled_split> make_pooled_split(split_variant variant, computed_result c,
                                                const split_setup& setup) {
  switch (variant) {
    case split_variant::seed:
      return std::make_unique<seed_split>(c, setup);
    case split_variant::shm:
      return std::make_unique<shm_split>(c, setup);
    case split_variant::overlapped:
      return std::make_unique<overlapped_split>(c, setup);
  }
  throw std::invalid_argument("make_pooled_split: unknown variant");
}

}  // namespace handoff::patterns::postproc_split
