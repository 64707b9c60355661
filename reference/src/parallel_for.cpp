#include "handoff/reference/parallel_for.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace handoff::reference {

unsigned default_thread_count() noexcept {
  return std::max(1u, std::thread::hardware_concurrency());
}

unsigned parallel_for(std::size_t count, const std::function<void(std::size_t, std::size_t)>& body,
                      unsigned max_threads, std::size_t min_per_thread) {
  const std::size_t by_grain =
      std::max<std::size_t>(1, count / std::max<std::size_t>(1, min_per_thread));
  const std::size_t threads = std::min<std::size_t>(std::max(1u, max_threads), by_grain);
  if (threads <= 1) {
    body(0, count);
    return 1;
  }
  std::vector<std::jthread> workers;
  workers.reserve(threads - 1);
  const std::size_t slice = count / threads;
  const std::size_t remainder = count % threads;
  std::size_t begin = 0;
  for (std::size_t t = 0; t < threads; ++t) {
    const std::size_t end = begin + slice + (t < remainder ? 1 : 0);
    if (t + 1 == threads) {
      body(begin, end);
    } else {
      workers.emplace_back([&body, begin, end] { body(begin, end); });
    }
    begin = end;
  }
  return static_cast<unsigned>(threads);
}

}  // namespace handoff::reference
