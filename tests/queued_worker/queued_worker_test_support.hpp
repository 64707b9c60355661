#pragma once
// Shared by the queued_worker tests: seeded batches with their expected results, setups whose
// channels are named after the test process (so its /dev/shm check sees only its own segments),
// and checks that nothing is left behind.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "handoff/reference/inputs.hpp"
#include "handoff/reference/vector_add.hpp"
#include "handoff/reference/verify.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::queued_worker {

// GoogleTest prints a parameter with this (found by ADL), so test names read "GetParam() = seed".
inline void PrintTo(variant kind, std::ostream* out) {
  *out << variant_name(kind);
}

}  // namespace handoff::patterns::queued_worker

namespace handoff::patterns::queued_worker::testing_support {

// Items of the given sizes, with seeded never-zero inputs and poisoned outputs.
class test_batch {
 public:
  explicit test_batch(const std::vector<std::size_t>& sizes, std::uint64_t seed = 0x0E2) {
    for (std::size_t index = 0; index < sizes.size(); ++index) {
      auto& a = a_.emplace_back(sizes[index]);
      auto& b = b_.emplace_back(sizes[index]);
      reference::fill_seeded_nonzero(a, seed + 2 * index);
      reference::fill_seeded_nonzero(b, seed + 2 * index + 1);
      auto& expected = expected_.emplace_back(sizes[index]);
      reference::vector_add(a, b, expected);
      out_.emplace_back(sizes[index]);
    }
    for (std::size_t index = 0; index < sizes.size(); ++index) {
      items_.push_back({a_[index], b_[index]});
      outputs_.push_back(out_[index]);
    }
    poison();
  }
  test_batch(const test_batch&) = delete;
  test_batch& operator=(const test_batch&) = delete;

  std::span<const work_item> items() const { return items_; }
  std::span<const std::span<float>> outputs() const { return outputs_; }
  void poison() {
    for (auto& out : out_)
      reference::poison(out);
  }
  // Every item's c, exactly, in its own output.
  reference::verification_result verify() const {
    reference::verification_result total;
    for (std::size_t index = 0; index < out_.size(); ++index) {
      const auto one = reference::verify_elementwise(expected_[index], out_[index]);
      total.checked += one.checked;
      total.mismatches += one.mismatches;
      if (!total.first && one.first) total.first = one.first;
    }
    return total;
  }

 private:
  std::vector<std::vector<float>> a_, b_, expected_, out_;
  std::vector<work_item> items_;
  std::vector<std::span<float>> outputs_;
};

inline std::string test_purpose(const std::string& what) {
  return "qwtest-" + std::to_string(::getpid()) + "-" + what;
}

// /dev/shm entries whose names carry this test process's purposes.
inline std::set<std::string> segments_of_this_process() {
  const std::string marker = "qwtest-" + std::to_string(::getpid()) + "-";
  return handoff::leak_checks::shm_segments_containing(marker);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using handoff::leak_checks::process_exists;

inline worker_setup setup_for(variant kind, compute_target target, std::size_t max_elements,
                              const std::string& what) {
  worker_setup setup;
  setup.kind = kind;
  setup.target = target;
  setup.max_item_elements = max_elements;
  setup.slot_count = 4;
  setup.patience = std::chrono::seconds(20);
  setup.join_timeout = std::chrono::seconds(10);
  setup.purpose = test_purpose(what);
  return setup;
}

}  // namespace handoff::patterns::queued_worker::testing_support
