#pragma once
// What every pool_prep session shares: the kind of output memory its variant writes into, and the
// figures every row reports (its workers, and one chunk's preparation time, measured after the
// run for its floor).

#include <cstddef>
#include <span>
#include <vector>

#include "handoff/patterns/pool_prep/variants.hpp"

namespace handoff::patterns::pool_prep {

class batch_session : public session<batch_case> {
 public:
  batch_session(output_memory memory, std::size_t workers, std::size_t chunk_elements)
      : memory_(memory), workers_(workers), chunk_elements_(chunk_elements) {}

  void poison(batch_case& work) override { work.poison(memory_); }
  std::vector<named_figure> figures() const override {
    return {{"workers", static_cast<double>(workers_)},
            {"chunk_prep_seconds", measure_chunk_prep_seconds(chunk_elements_)}};
  }

 protected:
  std::span<float> output_of(batch_case& work) const { return work.output(memory_); }

 private:
  output_memory memory_;
  std::size_t workers_;
  std::size_t chunk_elements_;
};

// Page-locked only where a GPU owner copies into it.
inline output_memory streamed_output(compute_target target) {
  return target == compute_target::device ? output_memory::page_locked : output_memory::pageable;
}

}  // namespace handoff::patterns::pool_prep
