#include "family_registry.hpp"

#include "registration.hpp"

#include <algorithm>
#include <random>

namespace handoff::bench {
namespace {

using family_maker = std::function<std::vector<benchmark_family>()>;

// Filled before main, by each family's file.
std::vector<family_maker>& makers() {
  static std::vector<family_maker> all;
  return all;
}

// Made on first use, once main has started.
std::vector<benchmark_family>& families() {
  static std::vector<benchmark_family> all = [] {
    std::vector<benchmark_family> made;
    for (const auto& make : makers()) {
      for (auto& family : make())
        made.push_back(std::move(family));
    }
    return made;
  }();
  return all;
}

}  // namespace

bool add_family(benchmark_family family) {
  makers().push_back([family = std::move(family)] { return std::vector{family}; });
  return true;
}

bool add_families(family_maker make) {
  makers().push_back(std::move(make));
  return true;
}

std::vector<family_plan> plan_families(const bench_environment& environment) {
  // Static registration order depends on the link order; ceilings run first so that later
  // benchmarks' ratios use ceilings measured under the same conditions, earlier in this run.
  const auto is_ceiling = [](const benchmark_family& family) {
    return family.name.starts_with("ceilings/");
  };
  std::ranges::stable_sort(families(), [&](const auto& left, const auto& right) {
    return is_ceiling(left) && !is_ceiling(right);
  });
  if (const auto seed = environment.config.shuffle_seed; seed != 0) {
    const auto first_family = std::ranges::find_if_not(families(), is_ceiling);
    std::shuffle(first_family, families().end(), std::mt19937_64(seed));
  }
  std::vector<family_plan> plan;
  for (const auto& family : families()) {
    family_plan entry{.name = family.name,
                      .runs = true,
                      .skip_reason = {},
                      .settable_axes = family.settable_axes};
    if (environment.gpus.count < family.min_gpus) {
      entry.skip_reason = environment.gpus.count == 0 ? environment.gpus.reason
                                                      : "needs " + std::to_string(family.min_gpus) +
                                                            " GPUs, this machine has " +
                                                            std::to_string(environment.gpus.count);
    } else if (family.unavailable_reason && environment.config.list_as_gpus == 0) {
      entry.skip_reason = family.unavailable_reason(environment);
    }
    entry.runs = entry.skip_reason.empty();
    plan.push_back(std::move(entry));
  }
  return plan;
}

std::string describe_skipped(const std::vector<family_plan>& plan) {
  std::vector<std::pair<std::string, std::string>> by_reason;
  for (const auto& family : plan) {
    if (family.runs) continue;
    auto group = std::ranges::find(by_reason, family.skip_reason,
                                   &std::pair<std::string, std::string>::first);
    if (group == by_reason.end()) {
      by_reason.emplace_back(family.skip_reason, family.name);
    } else {
      group->second += ", " + family.name;
    }
  }
  std::string text;
  for (const auto& [reason, names] : by_reason) {
    text += (text.empty() ? "" : "; ") + reason + ": " + names;
  }
  return text;
}

std::vector<family_plan> register_families(const bench_environment& environment) {
  auto plan = plan_families(environment);
  for (const auto& entry : plan) {
    if (!entry.runs) continue;
    const auto family = std::ranges::find(families(), entry.name, &benchmark_family::name);
    set_registering_family(family->name, environment.config);
    family->register_benchmarks(environment);
  }
  set_registering_family("other", environment.config);
  return plan;
}

}  // namespace handoff::bench
