#pragma once
// Shared by the queued_worker tests: seeded batches with their expected results, setups whose
// channels are named after the test process (so its shared-memory check sees only its own
// segments), and checks that nothing is left behind.

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

#include "handoff/patterns/queued_worker/item_batch.hpp"
#include "handoff/patterns/queued_worker/queued_worker.hpp"
#include "handoff/patterns/queued_worker/variants.hpp"
#include "handoff/reference/verify.hpp"
#include "support/leak_checks.hpp"

namespace handoff::patterns::queued_worker::testing_support {

// Items of the given sizes, with seeded never-zero inputs and poisoned outputs.
class test_batch : public item_batch {
 public:
  explicit test_batch(const std::vector<std::size_t>& sizes, std::uint64_t seed = 0x0E2)
      : item_batch(sizes, seed) {}
};

inline std::string test_purpose(const std::string& what) {
  return "qwtest-" + std::to_string(::getpid()) + "-" + what;
}

// The segments this process holds whose names carry this test process's purposes.
inline std::set<std::string> segments_of_this_process() {
  const std::string marker = "qwtest-" + std::to_string(::getpid()) + "-";
  return handoff::leak_checks::held_segments_containing(marker);
}

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

using handoff::leak_checks::process_exists;

// The names of the pattern's variants, from its table.
inline std::vector<std::string> variant_names() {
  std::vector<std::string> names;
  for (const auto& row : queued_worker_variants())
    names.emplace_back(row.name);
  return names;
}

inline worker_setup setup_for(const std::string& variant, compute_target target,
                              std::size_t max_elements, const std::string& what) {
  worker_setup setup;
  setup.variant = variant;
  setup.target = target;
  setup.max_item_elements = max_elements;
  setup.slot_count = 4;
  setup.patience = std::chrono::seconds(20);
  setup.join_timeout = std::chrono::seconds(10);
  setup.purpose = test_purpose(what);
  return setup;
}

}  // namespace handoff::patterns::queued_worker::testing_support
