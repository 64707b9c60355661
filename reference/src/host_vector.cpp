#include "handoff/reference/host_vector.hpp"

#include <cstring>

#include "handoff/reference/parallel_for.hpp"

namespace handoff::reference {

namespace {

// Below this a thread costs more to start than the pages it would write.
constexpr std::size_t bytes_per_thread = std::size_t{8} << 20;

}  // namespace

void zero_in_parallel(void* bytes, std::size_t count) {
  auto* first = static_cast<unsigned char*>(bytes);
  parallel_for(
      count,
      [first](std::size_t begin, std::size_t end) { std::memset(first + begin, 0, end - begin); },
      default_thread_count(), bytes_per_thread);
}

}  // namespace handoff::reference
