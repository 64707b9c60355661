#pragma once
// postproc_split's process variants (seed 000 example 3): c = a + b is on the device, and a pool of
// CPU workers sums it chunk by chunk. One batch runs from "c is in device memory" to "the sum is on
// the host":
//   seed        c comes back whole into pageable memory, np.array_split cuts it, and every chunk
//               travels by value to a worker over its connection (pool.map(postprocess, chunks));
//   shm         c comes back into a shared-memory segment every worker has mapped; only offsets
//               travel;
//   overlapped  as shm, but the segment is page-locked and c comes back piece by piece (each chunk
//               cut into pieces, see pipeline_pieces), asynchronously: a worker gets piece k as
//               soon as its copy has landed, while piece k + 1 is still on the bus.
// Each returns the chunks' partial sums (doubles) in chunk order, and their sum, added in order by
// the coordinator, like the seed's sum(results). overlapped's partials add its pieces' sums, so
// they can differ from a chunk summed whole in the last bits.
//
// Objects own everything a batch needs (pool, host memory, segment), set up at construction:
// constructing one and running a batch is the cold figure, a further batch the warm one.

#include <array>
#include <chrono>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/postproc_split/computed_result.hpp"
#include "handoff/patterns/postproc_split/summing_pool.hpp"
#include "handoff/patterns/stage_times.hpp"

namespace handoff::patterns::postproc_split {

enum class split_variant { seed, shm, overlapped };
inline constexpr std::array all_split_variants{split_variant::seed, split_variant::shm,
                                               split_variant::overlapped};
std::string_view split_variant_name(split_variant variant) noexcept;

struct split_setup {
  std::size_t workers = 4;
  std::size_t chunks = 10;  // np.array_split's sections
  std::chrono::milliseconds patience = std::chrono::seconds(30);
  // Names the workers ("<name>-<index>") and the shared-memory segment.
  std::string name = "postproc_split";
};

class pooled_split {
 public:
  pooled_split(const pooled_split&) = delete;
  pooled_split& operator=(const pooled_split&) = delete;
  virtual ~pooled_split() = default;

  // NaN in the result, the partial sums and every host buffer a batch fills.
  virtual void poison() = 0;
  // One batch; returns the sum. Adds the stages it timed (d2h; serialize for the requests;
  // deserialize and post as the workers report them).
  virtual double run(stage_times& stages) = 0;

  double result() const noexcept { return result_; }
  std::span<const double> partials() const noexcept { return partials_; }
  std::span<const chunk> chunks() const noexcept { return chunks_; }
  summing_pool& pool() noexcept { return pool_; }

 protected:
  // Checks the setup before anything starts: 0 workers, or 0 chunks of a non-empty c, is
  // std::invalid_argument.
  pooled_split(computed_result c, const split_setup& setup);
  void poison_result() noexcept;
  double finish(std::vector<double> partials);  // keeps them and returns their sum, in order

  computed_result c_;
  std::vector<chunk> chunks_;
  summing_pool pool_;

 private:
  std::vector<double> partials_;
  double result_ = std::numeric_limits<double>::quiet_NaN();
};

std::unique_ptr<pooled_split> make_pooled_split(split_variant variant, computed_result c,
                                                const split_setup& setup);

}  // namespace handoff::patterns::postproc_split
