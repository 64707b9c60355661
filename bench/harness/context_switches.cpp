#include "context_switches.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include "handoff/transport/process_state.hpp"

namespace handoff::bench {
namespace {

// The number on the line that starts with label ("voluntary_ctxt_switches:" also ends a longer
// one).
template <class Number>
std::optional<Number> number_after(std::string_view text, std::string_view label) {
  auto at = text.find(label);
  while (at != std::string_view::npos && at > 0 && text[at - 1] != '\n')
    at = text.find(label, at + 1);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = text.substr(at + label.size());
  rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
  Number value{};
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (error != std::errc{} || end == rest.data()) return std::nullopt;
  return value;
}

std::string text_of(const std::filesystem::path& path) {
  std::ifstream file(path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::optional<pid_t> process_id_of(const std::filesystem::path& entry) {
  const auto name = entry.filename().string();
  pid_t id = 0;
  const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), id);
  if (error != std::errc{} || end != name.data() + name.size()) return std::nullopt;
  return id;
}

// Every process's parent, from /proc/*/stat: the kernel need not offer the children lists.
std::multimap<pid_t, pid_t> children_by_parent() {
  std::multimap<pid_t, pid_t> children;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
    const auto id = process_id_of(entry.path());
    if (!id) continue;
    // A process may end between the listing and the read: it then has no parent to add.
    if (const auto parent = transport::process_parent(*id)) children.emplace(*parent, *id);
  }
  return children;
}

std::vector<pid_t> descendants_of(pid_t root) {
  const auto children = children_by_parent();
  std::vector<pid_t> found;
  std::vector<pid_t> unvisited{root};
  while (!unvisited.empty()) {
    const pid_t parent = unvisited.back();
    unvisited.pop_back();
    const auto [first, last] = children.equal_range(parent);
    for (auto child = first; child != last; ++child) {
      found.push_back(child->second);
      unvisited.push_back(child->second);
    }
  }
  return found;
}

}  // namespace

std::optional<context_switches> parse_status_switches(std::string_view status) {
  const auto voluntary = number_after<std::uint64_t>(status, "voluntary_ctxt_switches:");
  const auto involuntary = number_after<std::uint64_t>(status, "nonvoluntary_ctxt_switches:");
  if (!voluntary || !involuntary) return std::nullopt;
  return context_switches{.voluntary = *voluntary, .involuntary = *involuntary};
}

context_switches switches_of_every_thread(pid_t process) {
  context_switches sum;
  for (const int thread : transport::process_threads(process)) {
    const auto status =
        "/proc/" + std::to_string(process) + "/task/" + std::to_string(thread) + "/status";
    if (const auto counts = parse_status_switches(text_of(status))) {
      sum.voluntary += counts->voluntary;
      sum.involuntary += counts->involuntary;
    }
  }
  return sum;
}

namespace {

std::optional<context_switches> own_and_reaped() {
  rusage own{};
  rusage reaped{};
  if (getrusage(RUSAGE_SELF, &own) != 0 || getrusage(RUSAGE_CHILDREN, &reaped) != 0)
    return std::nullopt;
  return context_switches{
      .voluntary = static_cast<std::uint64_t>(own.ru_nvcsw + reaped.ru_nvcsw),
      .involuntary = static_cast<std::uint64_t>(own.ru_nivcsw + reaped.ru_nivcsw)};
}

context_switches live_descendants() {
  context_switches sum;
  for (const pid_t descendant : descendants_of(getpid())) {
    const auto counts = switches_of_every_thread(descendant);
    sum.voluntary += counts.voluntary;
    sum.involuntary += counts.involuntary;
  }
  return sum;
}

std::optional<context_switches> added(const std::optional<context_switches>& own,
                                      const context_switches& descendants) {
  if (!own) return std::nullopt;
  return context_switches{.voluntary = own->voluntary + descendants.voluntary,
                          .involuntary = own->involuntary + descendants.involuntary};
}

// The scan of /proc may itself sleep: the opening reading takes this process's counts after it,
// the closing one before it, so that neither scan falls inside the window.
std::optional<context_switches> opening_reading() {
  const auto descendants = live_descendants();
  return added(own_and_reaped(), descendants);
}

std::optional<context_switches> closing_reading() {
  const auto own = own_and_reaped();
  return added(own, live_descendants());
}

}  // namespace

switches_while_running::switches_while_running() : start_(opening_reading()) {}

std::optional<switches_while_running::per_run_switches> switches_while_running::per_run(
    std::size_t runs) const {
  if (!start_ || runs == 0) return std::nullopt;
  const auto end = closing_reading();
  if (!end || end->voluntary < start_->voluntary || end->involuntary < start_->involuntary)
    return std::nullopt;
  const auto count = static_cast<double>(runs);
  return per_run_switches{
      .voluntary = static_cast<double>(end->voluntary - start_->voluntary) / count,
      .involuntary = static_cast<double>(end->involuntary - start_->involuntary) / count};
}

}  // namespace handoff::bench
