#pragma once
// What postproc_split's process variants (seed 000 example 3) share: c = a + b is on the device,
// and a pool of CPU workers sums it chunk by chunk. One batch runs from "c is in device memory" to
// "the sum is on the host". Each variant (seed_split.cpp, shm_split.cpp, overlapped_split.cpp)
// derives from pooled_split and says how c reaches the workers. A batch returns the chunks'
// partial sums (doubles) in chunk order, and their sum, added in order by the coordinator, like
// the seed's sum(results).
//
// Objects own everything a batch needs (pool, host memory, segment), set up at construction:
// constructing one and running a batch is the cold figure, a further batch the warm one.

#include <chrono>
#include <cstddef>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/postproc_split/array_split.hpp"
#include "handoff/patterns/postproc_split/computed_result.hpp"
#include "handoff/patterns/postproc_split/summing_pool.hpp"
#include "handoff/patterns/run_result.hpp"

namespace handoff::patterns::postproc_split {

struct split_setup {
  std::size_t workers = 4;
  std::size_t chunks = 10;  // np.array_split's sections
  std::chrono::milliseconds patience = std::chrono::seconds(30);
  // Names the workers ("<name>-<index>") and the shared-memory segment.
  std::string name = "postproc_split";
};

// 0 workers, or 0 chunks of a non-empty c, is std::invalid_argument.
const split_setup& checked(const split_setup& setup, std::size_t count);

class pooled_split {
 public:
  pooled_split(const pooled_split&) = delete;
  pooled_split& operator=(const pooled_split&) = delete;
  virtual ~pooled_split() = default;

  // NaN in the result, the partial sums and every host buffer a batch fills.
  virtual void poison() = 0;
  // One batch, leaving its sum in result(). Its stages: d2h; serialize for the requests;
  // deserialize and post as the workers report them.
  virtual run_result run() = 0;

  double result() const noexcept { return result_; }
  std::span<const double> partials() const noexcept { return partials_; }
  std::span<const chunk> chunks() const noexcept { return chunks_; }
  const computed_result& c() const noexcept { return c_; }
  summing_pool& pool() noexcept { return pool_; }
  const summing_pool& pool() const noexcept { return pool_; }
  // Closes the workers' channels and waits for them to exit, as the pool's user would; one that
  // does not exit cleanly is worker_died.
  void shutdown() { pool_.shutdown(); }

 protected:
  pooled_split(computed_result c, const split_setup& setup);
  // NaN in the result, the partial sums and host_c, the host memory c comes back into.
  void poison_result(std::span<float> host_c) noexcept;
  // Copies c back whole into host_c, timed by the wall clock as the batch's d2h stage.
  void timed_copy_back(std::span<float> host_c, stage_times& stages) const;
  double finish(std::vector<double> partials);  // keeps them and returns their sum, in order

  computed_result c_;
  std::vector<chunk> chunks_;
  summing_pool pool_;

 private:
  std::vector<double> partials_;
  double result_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace handoff::patterns::postproc_split
