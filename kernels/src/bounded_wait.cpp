#include "handoff/bounded_wait.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "handoff/cuda_check.hpp"
#include "handoff/wall_clock.hpp"

namespace handoff {
namespace {

std::atomic<std::size_t> stalls{0};

std::string describe(const wait_site& site, double waited_seconds) {
  std::string message = "GPU " + std::to_string(site.device) + " did not finish ";
  message += site.variant.empty() ? std::string("its work") : std::string(site.variant);
  if (!site.stage.empty()) message += " (" + std::string(site.stage) + ")";
  message += " within " + std::to_string(static_cast<long long>(std::lround(waited_seconds))) +
             " s: stalled, or a peer never arrived (HANDOFF_GPU_WAIT_SECONDS sets the limit)";
  return message;
}

// A short wait spins, as a timed join must (waking from a sleep costs more than the join); a
// longer one yields and then sleeps, so that it does not hold a core the run's other threads need.
void pause_after(std::chrono::duration<double> waited) {
  using namespace std::chrono_literals;
  if (waited < 2ms) return;
  if (waited < 100ms) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(1ms);
  }
}

bool query_finished(cudaError_t status) {
  if (status == cudaErrorNotReady) return false;
  HANDOFF_CUDA_CHECK(status);
  return true;
}

}  // namespace

gpu_stalled::gpu_stalled(const wait_site& site, double waited_seconds)
    : std::runtime_error(describe(site, waited_seconds)),
      variant_(site.variant),
      stage_(site.stage),
      device_(site.device) {}

std::size_t gpu_stalls_so_far() noexcept {
  return stalls.load(std::memory_order_relaxed);
}

std::chrono::duration<double> gpu_wait_limit() {
  constexpr double default_seconds = 120.0;
  const char* text = std::getenv("HANDOFF_GPU_WAIT_SECONDS");
  if (text == nullptr || *text == '\0') return std::chrono::duration<double>(default_seconds);
  const std::string_view value(text);
  double seconds = 0.0;
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (error != std::errc{} || end != value.data() + value.size() || !std::isfinite(seconds) ||
      seconds <= 0.0) {
    throw std::invalid_argument(
        "HANDOFF_GPU_WAIT_SECONDS must be a positive number of seconds, not '" +
        std::string(value) + "'");
  }
  return std::chrono::duration<double>(seconds);
}

void wait_until(const std::function<bool()>& finished, const wait_site& site,
                std::chrono::duration<double> limit) {
  const auto start = wall_clock::now();
  while (!finished()) {
    const auto waited = wall_clock::now() - start;
    if (waited >= limit) {
      if (finished()) return;
      stalls.fetch_add(1, std::memory_order_relaxed);
      throw gpu_stalled(site, std::chrono::duration<double>(waited).count());
    }
    pause_after(waited);
  }
}

void wait_for(const event& done, const wait_site& site) {
  wait_until([&done] { return query_finished(cudaEventQuery(done.get())); }, site,
             gpu_wait_limit());
}

void wait_for_default_stream(const wait_site& site) {
  const event done(cudaEventDisableTiming);
  done.record(nullptr);
  wait_for(done, site);
}

void wait_for(const stream& work, const wait_site& site) {
  wait_until([&work] { return query_finished(cudaStreamQuery(work.get())); }, site,
             gpu_wait_limit());
}

}  // namespace handoff
