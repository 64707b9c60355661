#pragma once
// Shared by pool_prep's CPU and GPU tests: every variant behind one interface, an output buffer of
// the kind the variant wants (page-locked on the device), and the check that a batch came back
// complete, in order and equal to the reference.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "handoff/device_buffer.hpp"
#include "handoff/patterns/pool_prep/cpu_serial.hpp"
#include "handoff/patterns/pool_prep/map_pool.hpp"
#include "handoff/patterns/pool_prep/shared_gpu_pool.hpp"
#include "handoff/patterns/pool_prep/threads_pipeline.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/pool_prep_inputs.hpp"
#include "handoff/reference/verify.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::pool_prep::testing_support {

enum class variant { cpu_serial, map_pool, shared_gpu, threads };

inline std::string variant_name(variant which) {
  switch (which) {
    case variant::cpu_serial:
      return "cpu_serial";
    case variant::map_pool:
      return "map_pool";
    case variant::shared_gpu:
      return "shared_gpu";
    case variant::threads:
      return "threads";
  }
  return "unknown";
}

// Names this test process's workers and segments, so leak checks see only its own.
inline std::string test_purpose(const std::string& what) {
  return "test-" + std::to_string(::getpid()) + "-pool-prep-" + what;
}

using handoff::leak_checks::process_runs;

inline std::set<std::string> segments_containing(const std::string& purpose) {
  return handoff::leak_checks::shm_segments_containing(purpose);
}

class runner {
 public:
  virtual ~runner() = default;
  virtual stage_times run(const batch& work, std::span<float> out) = 0;
};

template <class Variant>
class runner_of final : public runner {
 public:
  template <class... Arguments>
  explicit runner_of(Arguments&&... arguments) : variant_(std::forward<Arguments>(arguments)...) {}
  stage_times run(const batch& work, std::span<float> out) override {
    return variant_.run(work, out);
  }

 private:
  Variant variant_;
};

// cpu_serial owns its output; this copies it out so every variant reads the same.
class serial_runner final : public runner {
 public:
  stage_times run(const batch& work, std::span<float> out) override {
    const auto stages = serial_.run(work);
    const auto result = serial_.result();
    if (result.size() != out.size()) throw std::invalid_argument("output size");
    std::copy(result.begin(), result.end(), out.begin());
    return stages;
  }

 private:
  cpu_serial serial_;
};

struct pool_shape {
  std::size_t workers = 3;
  std::size_t max_chunk_elements = 1024;
  std::string purpose = "pool";
};

inline std::unique_ptr<runner> make_runner(variant which, compute_target target,
                                           const pool_shape& shape) {
  switch (which) {
    case variant::cpu_serial:
      return std::make_unique<serial_runner>();
    case variant::map_pool:
      return std::make_unique<runner_of<map_pool>>(map_pool_options{
          .workers = shape.workers, .target = target, .name = test_purpose(shape.purpose)});
    case variant::shared_gpu:
      return std::make_unique<runner_of<shared_gpu_pool>>(
          shared_gpu_options{.workers = shape.workers,
                             .max_chunk_elements = shape.max_chunk_elements,
                             .target = target,
                             .purpose = test_purpose(shape.purpose)});
    case variant::threads:
      return std::make_unique<runner_of<threads_pipeline>>(
          threads_options{.prep_threads = shape.workers,
                          .max_chunk_elements = shape.max_chunk_elements,
                          .target = target});
  }
  return nullptr;
}

// Page-locked on the device, as shared_gpu and threads expect; ordinary memory on the host.
class output_buffer {
 public:
  output_buffer(compute_target target, std::size_t count) {
    if (target == compute_target::device) {
      pinned_ = pinned_buffer<float>(count);
      floats_ = pinned_.span();
    } else {
      pageable_.resize(count);
      floats_ = pageable_;
    }
  }
  std::span<float> floats() const { return floats_; }

 private:
  pinned_buffer<float> pinned_;
  std::vector<float> pageable_;
  std::span<float> floats_;
};

// Runs one batch into a poisoned output and checks every element against the reference: a
// missing, duplicated or misplaced chunk shows as a mismatch.
inline void expect_complete_and_ordered(runner& on, compute_target target, const batch& work,
                                        const std::string& context) {
  output_buffer out(target, work.total_elements);
  reference::poison(out.floats());
  on.run(work, out.floats());
  const auto expected = reference::expected_chunked_vector_add(work.total_elements, work.seeds);
  const auto verdict = reference::verify_elementwise(expected, out.floats());
  EXPECT_EQ(verdict.checked, work.total_elements) << context;
  EXPECT_TRUE(verdict.passed()) << context << ": " << verdict.describe();
}

}  // namespace handoff::patterns::pool_prep::testing_support
