#include "host_cpu_share.hpp"

#include <array>
#include <charconv>
#include <fstream>
#include <sstream>
#include <string>

namespace handoff::bench {
namespace {

// user nice system idle iowait irq softirq steal: guest time is already counted in user and nice.
constexpr std::size_t counted_fields = 8;
enum field : std::size_t { user, nice, system, idle, iowait, irq, softirq, steal };

}  // namespace

std::optional<host_cpu_times> parse_proc_stat(std::string_view text) {
  constexpr std::string_view prefix = "cpu ";
  if (!text.starts_with(prefix)) return std::nullopt;
  std::string_view line = text.substr(prefix.size());
  line = line.substr(0, line.find('\n'));
  std::array<std::uint64_t, counted_fields> values{};
  std::size_t read = 0;
  while (read < counted_fields) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    line.remove_prefix(start);
    const auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), values[read]);
    if (error != std::errc{}) return std::nullopt;
    line.remove_prefix(static_cast<std::size_t>(end - line.data()));
    ++read;
  }
  // Kernels before 2.6.11 had no steal field; nothing older is met, but a short line is refused.
  if (read < counted_fields) return std::nullopt;
  return host_cpu_times{
      .busy = values[user] + values[nice] + values[system] + values[irq] + values[softirq],
      .idle = values[idle] + values[iowait],
      .steal = values[steal]};
}

std::optional<host_cpu_times> read_host_cpu_times() {
  std::ifstream file("/proc/stat");
  std::string first_line;
  if (!std::getline(file, first_line)) return std::nullopt;
  return parse_proc_stat(first_line);
}

std::optional<host_cpu_share> share_between(const host_cpu_times& before,
                                            const host_cpu_times& after) {
  if (after.busy < before.busy || after.idle < before.idle || after.steal < before.steal) {
    return std::nullopt;
  }
  const auto busy = static_cast<double>(after.busy - before.busy);
  const auto idle = static_cast<double>(after.idle - before.idle);
  const auto steal = static_cast<double>(after.steal - before.steal);
  const double total = busy + idle + steal;
  if (total <= 0.0) return std::nullopt;
  return host_cpu_share{.busy = busy / total, .steal = steal / total};
}

}  // namespace handoff::bench
