#include "handoff/patterns/multi_gpu/workload_registry.hpp"

#include <map>
#include <mutex>

namespace handoff::patterns::multi_gpu {

// Defined beside the article's registrations (article_workloads.cpp). Calling it makes the linker
// keep that file, which nothing else names, out of the static library, and with it its
// registrations.
void link_article_workloads() noexcept;

namespace {

struct registry {
  std::mutex mutex;
  std::map<std::string, workload, std::less<>>
      by_name;  // nodes stay put: references outlive inserts
};

// Built on first use, so registrations from any file's static initialisation find it ready.
registry& the_registry() {
  static registry instance;
  return instance;
}

bool allowed_in_name(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

void check_registrable(const workload& w) {
  const std::string quoted = "multi-GPU workload '" + w.name + "': ";
  if (w.name.empty()) {
    throw workload_registration_error(
        "a multi-GPU workload has an empty name: give .name, which "
        "its benchmarks show as workload:<name>");
  }
  for (const char c : w.name) {
    if (!allowed_in_name(c)) {
      throw workload_registration_error(
          quoted + "the character '" + std::string(1, c) +
          "' would break its benchmark names (multi_gpu/<variant>/workload:<name>/...) or their "
          "filters; use letters, digits, '_' and '-' only");
    }
  }
  if (w.kernel.function == nullptr) {
    throw workload_registration_error(
        quoted + "no kernel: set .kernel = handoff::user_kernel_of(<your __global__ function>)");
  }
  if (w.kernel.elements_per_thread == 0 || w.kernel.threads_per_block == 0) {
    throw workload_registration_error(
        quoted + "elements_per_thread and threads_per_block must be at least 1");
  }
  if (w.reference == nullptr) {
    throw workload_registration_error(
        quoted +
        "no CPU reference: set .reference to a function float(float input, float "
        "device_value) giving one output element, which every result is verified against");
  }
}

}  // namespace

const workload& register_workload(workload w) {
  check_registrable(w);
  auto& registry = the_registry();
  const std::scoped_lock lock(registry.mutex);
  std::string name = w.name;
  auto [entry, added] = registry.by_name.try_emplace(std::move(name), std::move(w));
  if (!added) {
    throw workload_registration_error(
        "multi-GPU workload '" + entry->first +
        "' is registered twice: every workload needs a name of its own (the built-in ones are "
        "scale_by_two and add_device_value); rename one");
  }
  entry->second.kernel.name = entry->first.c_str();  // launch-check messages name the workload
  return entry->second;
}

const workload& find_workload(std::string_view name) {
  link_article_workloads();
  auto& registry = the_registry();
  const std::scoped_lock lock(registry.mutex);
  if (const auto found = registry.by_name.find(name); found != registry.by_name.end())
    return found->second;
  std::string known;
  for (const auto& [registered, _] : registry.by_name)
    known += (known.empty() ? "" : ", ") + registered;
  throw unknown_workload_error("no multi-GPU workload is named '" + std::string(name) +
                               "'; registered: " + known +
                               " (a user workload registers from a file in HANDOFF_USER_KERNELS)");
}

std::vector<const workload*> registered_workloads() {
  link_article_workloads();
  auto& registry = the_registry();
  const std::scoped_lock lock(registry.mutex);
  std::vector<const workload*> all;
  for (const auto& [_, w] : registry.by_name)
    all.push_back(&w);
  return all;
}

}  // namespace handoff::patterns::multi_gpu
