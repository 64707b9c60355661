#include "bench_config.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace handoff::bench {
namespace {

// A finite number in (0, most]; anything else is a clear error, never a hang or a huge allocation.
template <class Number>
Number parse_number(std::string_view flag, std::string_view text, Number most) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  const bool finite = std::isfinite(static_cast<double>(value));
  if (error != std::errc{} || end != text.data() + text.size() || !finite || value <= Number{} ||
      value > most) {
    throw std::invalid_argument("handoff_bench: " + std::string(flag) + " needs a number in (0, " +
                                std::to_string(most) + "], got '" + std::string(text) + "'");
  }
  return value;
}

}  // namespace

bench_config parse_handoff_flags(int& argc, char** argv) {
  bench_config config;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view argument = argv[i];
    const auto value_of = [&](std::string_view flag) { return argument.substr(flag.size()); };
    if (argument == "--handoff-smoke") {
      config.smoke = true;
      config.min_time_seconds = 0.01;
    } else if (argument == "--handoff-plant-wrong-result") {
      config.plant_wrong_result = true;
    } else if (argument == "--handoff-list-families") {
      config.list_families = true;
    } else if (argument.starts_with("--handoff-min-time=")) {
      config.min_time_seconds = parse_number<double>(
          "--handoff-min-time", value_of("--handoff-min-time="), max_min_time_seconds);
    } else if (argument.starts_with("--handoff-max-elements=")) {
      config.max_elements = parse_number<std::uint64_t>(
          "--handoff-max-elements", value_of("--handoff-max-elements="), max_element_count);
    } else if (argument.starts_with("--handoff-shuffle-families=")) {
      config.shuffle_seed = parse_number<std::uint64_t>("--handoff-shuffle-families",
                                                        value_of("--handoff-shuffle-families="),
                                                        std::numeric_limits<std::uint64_t>::max());
    } else if (argument.starts_with("--handoff-")) {
      throw std::invalid_argument("handoff_bench: unknown flag " + std::string(argument) + "\n" +
                                  handoff_flags_help());
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return config;
}

std::string handoff_flags_help() {
  return "handoff flags:\n"
         "  --handoff-smoke              every benchmark family once, at a tiny size\n"
         "  --handoff-list-families      which families this machine runs or skips, and why\n"
         "  --handoff-plant-wrong-result add selftest/planted_wrong_result, which must fail\n"
         "  --handoff-min-time=SECONDS   minimum time per benchmark (default 0.5)\n"
         "  --handoff-max-elements=N     largest element count on the element axes (default "
         "2^28)\n"
         "  --handoff-shuffle-families=SEED  run the families (after the ceilings) in an order\n"
         "                               drawn from SEED\n";
}

}  // namespace handoff::bench
