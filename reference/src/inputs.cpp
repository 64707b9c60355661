#include "handoff/reference/inputs.hpp"

#include <algorithm>
#include <cstring>
#include <exception>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {

namespace {

// Small buffers stay on the calling thread, so the caches a sample starts from are as before.
constexpr std::size_t poison_floats_per_thread = std::size_t{4} << 20;

// Groups of a fixed size, so that GCC vectorises the inner loop even at -O2, whose cost model
// takes no loop that needs a scalar epilogue; the tail of fewer than a group runs scalar.
inline void fill_block(float* out, std::size_t count, std::uint32_t key,
                       std::uint32_t first_low) noexcept {
  constexpr std::size_t group = 64;
  std::size_t i = 0;
  for (; i + group <= count; i += group) {
    for (std::size_t j = 0; j < group; ++j) {
      out[i + j] = seeded_detail::value(key, first_low + static_cast<std::uint32_t>(i + j));
    }
  }
  for (; i < count; ++i)
    out[i] = seeded_detail::value(key, first_low + static_cast<std::uint32_t>(i));
}

using seeded_detail::fill_block_function;

// The build targets baseline x86-64, whose SSE2 has no 32-bit vector multiply (GCC builds a slow
// one from pmuludq and shuffles), so the same loop is also compiled for AVX2 and AVX-512, and the
// widest the CPU runs is picked once, at run time.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
[[gnu::target("avx2")]] void fill_block_avx2(float* out, std::size_t count, std::uint32_t key,
                                             std::uint32_t first_low) noexcept {
  fill_block(out, count, key, first_low);
}

[[gnu::target("avx512f")]] void fill_block_avx512(float* out, std::size_t count, std::uint32_t key,
                                                  std::uint32_t first_low) noexcept {
  fill_block(out, count, key, first_low);
}

std::vector<fill_block_function> runnable() {
  __builtin_cpu_init();  // may run before the constructor that initialises the CPU model
  std::vector<fill_block_function> paths{fill_block};
  if (__builtin_cpu_supports("avx2")) paths.push_back(fill_block_avx2);
  if (__builtin_cpu_supports("avx512f")) paths.push_back(fill_block_avx512);
  return paths;
}
#else
std::vector<fill_block_function> runnable() {
  return {fill_block};
}
#endif

}  // namespace

std::vector<fill_block_function> seeded_detail::runnable_fill_blocks() {
  return runnable();
}

void fill_seeded_nonzero(std::span<float> values, std::uint64_t seed,
                         std::uint64_t first_index) noexcept {
  static const fill_block_function fill = runnable().back();  // the widest
  std::size_t done = 0;
  // One key per run of indices sharing their high 32 bits.
  while (done < values.size()) {
    const std::uint64_t index = first_index + done;
    const auto low = static_cast<std::uint32_t>(index);
    const std::uint64_t to_next_high = (std::uint64_t{1} << 32) - low;
    const auto count =
        static_cast<std::size_t>(std::min<std::uint64_t>(values.size() - done, to_next_high));
    fill(values.data() + done, count, seeded_detail::key(seed, index >> 32), low);
    done += count;
  }
}

void fill_seeded_nonzero(std::span<float> values, std::uint64_t seed) {
  parallel_for(values.size(), [&](std::size_t begin, std::size_t end) {
    fill_seeded_nonzero(values.subspan(begin, end - begin), seed, begin);
  });
}

void poison(std::span<float> values) noexcept {
  if (values.empty()) return;
  const auto write = [values](std::size_t begin, std::size_t end) {
    std::memset(values.data() + begin, poison_byte, (end - begin) * sizeof(float));
  };
  // Rows poison before every sample: a gibibyte from one thread took longer than the sample.
  try {
    parallel_for(values.size(), write, default_thread_count(), poison_floats_per_thread);
  } catch (const std::exception&) {  // a thread could not be started: this one does it all
    write(0, values.size());
  }
}

}  // namespace handoff::reference
