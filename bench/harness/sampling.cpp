#include "sampling.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace handoff::bench {
namespace {

// Beyond this count the binomial is replaced by its normal approximation, which is then exact to
// well within one rank.
constexpr std::size_t exact_binomial_limit = 400;
constexpr double two_sided_tail = 0.025;
constexpr double z_975 = 1.959963984540054;

double binomial_half_pmf(std::size_t n, std::size_t k) {
  const double log_choose = std::lgamma(static_cast<double>(n) + 1) -
                            std::lgamma(static_cast<double>(k) + 1) -
                            std::lgamma(static_cast<double>(n - k) + 1);
  return std::exp(log_choose - static_cast<double>(n) * std::log(2.0));
}

double nth(std::vector<double>& samples, std::size_t zero_based) {
  std::nth_element(samples.begin(), samples.begin() + static_cast<long>(zero_based), samples.end());
  return samples[zero_based];
}

}  // namespace

double median_interval::noise() const noexcept {
  if (!(median > 0.0)) return std::numeric_limits<double>::infinity();
  return (high - low) / 2.0 / median;
}

std::size_t lower_rank_of_median_interval(std::size_t n) {
  if (n > exact_binomial_limit) {
    const double nd = static_cast<double>(n);
    return static_cast<std::size_t>(std::floor((nd - z_975 * std::sqrt(nd)) / 2.0));
  }
  // The largest j with P(Binomial(n, 1/2) <= j - 1) <= 2.5%: then x_(j) <= median <= x_(n+1-j)
  // holds with probability at least 95%.
  double tail = 0.0;
  std::size_t j = 0;
  for (std::size_t k = 0; k < n; ++k) {
    tail += binomial_half_pmf(n, k);
    if (tail > two_sided_tail) break;
    j = k + 1;
  }
  return j;
}

median_interval median_with_interval(std::vector<double>& samples) {
  const std::size_t n = samples.size();
  if (n == 0) return {};
  median_interval result;
  if (n % 2 == 1) {
    result.median = nth(samples, n / 2);
  } else {
    const double upper = nth(samples, n / 2);
    const double lower =
        *std::max_element(samples.begin(), samples.begin() + static_cast<long>(n / 2));
    result.median = (lower + upper) / 2.0;
  }
  result.fastest = *std::min_element(samples.begin(), samples.end());
  const std::size_t j = lower_rank_of_median_interval(n);
  if (j == 0) {
    const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
    result.low = *low;
    result.high = *high;
  } else {
    result.low = nth(samples, j - 1);
    result.high = nth(samples, n - j);
  }
  return result;
}

bool stopping_rule::should_stop(std::vector<double>& samples, double timed_seconds,
                                double elapsed_seconds) {
  if (elapsed_seconds >= settings_.timeout_seconds) {
    // Fewer samples than the minimum have no interval worth the name (one sample, none at all).
    auto copy = samples;
    stopped_at_cap_ = samples.size() < static_cast<std::size_t>(settings_.min_samples) ||
                      median_with_interval(copy).noise() > settings_.max_noise;
    return true;
  }
  const auto count = samples.size();
  if (count < static_cast<std::size_t>(settings_.min_samples) ||
      timed_seconds < settings_.min_time_seconds) {
    return false;
  }
  // Check at 10% more samples or 50 ms later, whichever comes first.
  if (count < next_check_ && elapsed_seconds < next_check_time_) return false;
  next_check_ = count + std::max<std::size_t>(1, count / 10);
  next_check_time_ = elapsed_seconds + 0.05;
  auto copy = samples;
  return median_with_interval(copy).noise() <= settings_.max_noise;
}

}  // namespace handoff::bench
