#include "process_identity.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>

namespace handoff::bench {
namespace {

// A page's worth of stack and a few pages of heap: enough to move every alignment that matters
// (cache lines, pages' cache sets, 4 KiB aliasing), small enough to cost nothing.
constexpr std::size_t most_stack_offset = 4096;
constexpr std::size_t most_heap_offset = 64 * 1024;

process_identity draw() {
  std::random_device entropy;
  std::mt19937_64 token_bits(std::uint64_t{entropy()} << 32 | entropy());
  const char* seed_text = std::getenv("HANDOFF_LAYOUT_SEED");
  std::mt19937_64 layout(seed_text != nullptr ? std::strtoull(seed_text, nullptr, 10)
                                              : token_bits());
  char token[40];
  std::snprintf(token, sizeof token, "%08llx-%d",
                static_cast<unsigned long long>(token_bits() & 0xffffffffULL),
                static_cast<int>(::getpid()));
  // Multiples of 16 keep the stack's ABI alignment.
  return {token, 16 * (layout() % (most_stack_offset / 16 + 1)), 1 + layout() % most_heap_offset};
}

}  // namespace

const process_identity& this_process() {
  static const process_identity identity = draw();
  return identity;
}

void shift_the_heap(std::size_t bytes) {
  static std::unique_ptr<char[]> held;
  held = std::make_unique<char[]>(bytes);
}

}  // namespace handoff::bench
