#pragma once
// The elementwise pattern's vector add (seed 000's workload) as a table of variants (variant.hpp):
// a point is an element count; its case holds the seeded a and b and the reference sum. Each
// variant's row, session, set-up and floor live in the variant's file under
// patterns/src/elementwise/vector_add/; its variants.def lists them.

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "handoff/patterns/variant.hpp"
#include "handoff/reference/verify.hpp"

namespace handoff::patterns::elementwise {

struct vector_add_point {
  std::size_t count = 1027;
  bool operator==(const vector_add_point&) const = default;
};

// Seeded a and b of one size, shared by the case and the sessions of that size (one copy; at 2^28
// elements they are 2 GiB), so a session can be set up from its point alone.
struct vector_add_inputs {
  std::vector<float> a, b;
};
std::shared_ptr<const vector_add_inputs> seeded_vector_add_inputs(std::size_t count);

// The work of one point. The outputs are the sessions' own (a copy into the case would add to the
// timed run), so the case poisons nothing and each session verifies its own result.
class vector_add_case {
 public:
  explicit vector_add_case(const vector_add_point& at);
  void poison() {}
  reference::verification_result verify_sum(std::span<const float> out) const;

 private:
  std::shared_ptr<const vector_add_inputs> inputs_;
  std::vector<float> expected_;
};

std::unique_ptr<vector_add_case> make_vector_add_case(const vector_add_point& at);

// Bytes through device memory in one run: a and b read, the sum written.
double vector_add_bytes(std::size_t count);

using vector_add_session = session<vector_add_case>;
variant_table<vector_add_point, vector_add_case> vector_add_variants();

}  // namespace handoff::patterns::elementwise
