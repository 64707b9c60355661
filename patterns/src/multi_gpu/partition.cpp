#include "handoff/patterns/multi_gpu/partition.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>

namespace handoff::patterns::multi_gpu {
namespace {

constexpr std::array partitioner_names = {std::string_view{"even"}, std::string_view{"round_robin"},
                                          std::string_view{"weighted"}};

void require_devices(const char* where, int devices) {
  if (devices < 1) {
    throw partition_error(std::string(where) + ": devices must be at least 1, got " +
                          std::to_string(devices));
  }
}

void require_device_in_plan(const partition_plan& plan, int device) {
  if (device < 0 || device >= plan.devices) {
    throw partition_error("partition_plan: device " + std::to_string(device) + " is outside [0, " +
                          std::to_string(plan.devices) + ")");
  }
}

std::string describe_part(std::size_t index, const part& piece) {
  return "part " + std::to_string(index) + " (device " + std::to_string(piece.device) +
         ", offset " + std::to_string(piece.offset) + ", count " + std::to_string(piece.count) +
         ", local_offset " + std::to_string(piece.local_offset) + ")";
}

void require_usable_throughputs(std::span<const double> throughputs) {
  if (throughputs.empty()) {
    throw partition_error("partition_weighted: no device throughputs given");
  }
  if (throughputs.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    throw partition_error("partition_weighted: " + std::to_string(throughputs.size()) +
                          " devices is more than an int can count");
  }
  long double total = 0.0L;
  for (std::size_t device = 0; device < throughputs.size(); ++device) {
    const double throughput = throughputs[device];
    if (!std::isfinite(throughput) || throughput < 0.0) {
      throw partition_error("partition_weighted: throughput of device " + std::to_string(device) +
                            " is " + std::to_string(throughput) +
                            "; it must be finite and not negative");
    }
    total += throughput;
  }
  if (total == 0.0L) {
    throw partition_error("partition_weighted: all " + std::to_string(throughputs.size()) +
                          " device throughputs are zero");
  }
}

// Largest-remainder apportionment of `elements` by `weights`. Devices of weight zero are never
// candidates for a leftover element, so they end with nothing.
std::vector<std::size_t> apportion(std::size_t elements, std::span<const double> weights) {
  const long double total = std::accumulate(weights.begin(), weights.end(), 0.0L);
  std::vector<std::size_t> counts(weights.size(), 0);
  std::vector<long double> remainders(weights.size(), 0.0L);
  std::size_t assigned = 0;
  for (std::size_t device = 0; device < weights.size(); ++device) {
    const long double quota = static_cast<long double>(elements) * weights[device] / total;
    const long double whole = std::floor(quota);
    counts[device] = std::min(static_cast<std::size_t>(whole), elements);
    remainders[device] = quota - whole;
    assigned += counts[device];
  }

  std::vector<std::size_t> by_remainder;
  for (std::size_t device = 0; device < weights.size(); ++device) {
    if (weights[device] > 0.0) by_remainder.push_back(device);
  }
  // Stable, so equal remainders keep ascending device order: the lower index wins a tie.
  std::stable_sort(by_remainder.begin(), by_remainder.end(),
                   [&](std::size_t a, std::size_t b) { return remainders[a] > remainders[b]; });

  // Exactly, fewer elements are left over than there are candidates. The wrap-around and the
  // trimming below only absorb rounding in the quotas when elements is near 2^64.
  for (std::size_t next = 0; assigned < elements; ++next, ++assigned) {
    ++counts[by_remainder[next % by_remainder.size()]];
  }
  for (std::size_t next = by_remainder.size(); assigned > elements;) {
    next = next == 0 ? by_remainder.size() - 1 : next - 1;
    if (counts[by_remainder[next]] > 0) {
      --counts[by_remainder[next]];
      --assigned;
    }
  }
  return counts;
}

}  // namespace

std::size_t partition_plan::elements_on(int device) const {
  require_device_in_plan(*this, device);
  std::size_t total = 0;
  for (const auto& piece : parts) {
    if (piece.device == device) total += piece.count;
  }
  return total;
}

std::size_t partition_plan::largest_device_share() const {
  std::vector<std::size_t> shares(static_cast<std::size_t>(std::max(devices, 0)), 0);
  for (const auto& piece : parts) {
    require_device_in_plan(*this, piece.device);
    shares[static_cast<std::size_t>(piece.device)] += piece.count;
  }
  return shares.empty() ? 0 : *std::max_element(shares.begin(), shares.end());
}

std::vector<part> partition_plan::parts_on(int device) const {
  require_device_in_plan(*this, device);
  std::vector<part> mine;
  for (const auto& piece : parts) {
    if (piece.device == device) mine.push_back(piece);
  }
  return mine;
}

bool partition_plan::uniform() const {
  if (devices < 1 || parts.size() != static_cast<std::size_t>(devices)) return false;
  for (std::size_t index = 0; index < parts.size(); ++index) {
    if (parts[index].device != static_cast<int>(index)) return false;
    if (parts[index].count != parts.front().count) return false;
  }
  return true;
}

std::string_view partitioner_name(partitioner kind) {
  return partitioner_names.at(static_cast<std::size_t>(kind));
}

partitioner parse_partitioner(std::string_view name) {
  for (std::size_t index = 0; index < partitioner_names.size(); ++index) {
    if (partitioner_names[index] == name) return static_cast<partitioner>(index);
  }
  std::string valid;
  for (const auto known : partitioner_names) {
    valid += valid.empty() ? "" : ", ";
    valid += known;
  }
  throw partition_error("unknown partitioner '" + std::string(name) + "' (valid: " + valid + ")");
}

partition_plan partition_even(std::size_t elements, int devices) {
  require_devices("partition_even", devices);
  const auto device_count = static_cast<std::size_t>(devices);
  const std::size_t base = elements / device_count;
  const std::size_t longer = elements % device_count;
  partition_plan plan{.elements = elements, .devices = devices, .parts = {}};
  plan.parts.reserve(device_count);
  std::size_t offset = 0;
  for (std::size_t device = 0; device < device_count; ++device) {
    const std::size_t count = base + (device < longer ? 1 : 0);
    plan.parts.push_back(part{
        .device = static_cast<int>(device), .offset = offset, .count = count, .local_offset = 0});
    offset += count;
  }
  return plan;
}

partition_plan partition_round_robin(std::size_t elements, int devices,
                                     std::size_t chunk_elements) {
  require_devices("partition_round_robin", devices);
  if (chunk_elements == 0) {
    throw partition_error("partition_round_robin: chunk_elements must be at least 1, got 0");
  }
  const auto device_count = static_cast<std::size_t>(devices);
  const std::size_t chunks = elements / chunk_elements + (elements % chunk_elements != 0 ? 1 : 0);
  partition_plan plan{.elements = elements, .devices = devices, .parts = {}};
  plan.parts.reserve(chunks);
  std::vector<std::size_t> filled(device_count, 0);
  for (std::size_t chunk = 0; chunk < chunks; ++chunk) {
    const std::size_t device = chunk % device_count;
    const std::size_t offset = chunk * chunk_elements;
    const std::size_t count = std::min(chunk_elements, elements - offset);
    plan.parts.push_back(part{.device = static_cast<int>(device),
                              .offset = offset,
                              .count = count,
                              .local_offset = filled[device]});
    filled[device] += count;
  }
  return plan;
}

partition_plan partition_weighted(std::size_t elements,
                                  std::span<const double> device_throughputs) {
  require_usable_throughputs(device_throughputs);
  const auto counts = apportion(elements, device_throughputs);
  partition_plan plan{
      .elements = elements, .devices = static_cast<int>(counts.size()), .parts = {}};
  plan.parts.reserve(counts.size());
  std::size_t offset = 0;
  for (std::size_t device = 0; device < counts.size(); ++device) {
    plan.parts.push_back(part{.device = static_cast<int>(device),
                              .offset = offset,
                              .count = counts[device],
                              .local_offset = 0});
    offset += counts[device];
  }
  return plan;
}

void check_plan(const partition_plan& plan) {
  require_devices("check_plan", plan.devices);
  std::vector<std::size_t> filled(static_cast<std::size_t>(plan.devices), 0);
  std::size_t covered = 0;
  for (std::size_t index = 0; index < plan.parts.size(); ++index) {
    const part& piece = plan.parts[index];
    if (piece.device < 0 || piece.device >= plan.devices) {
      throw partition_error("check_plan: " + describe_part(index, piece) +
                            " names a device outside [0, " + std::to_string(plan.devices) + ")");
    }
    if (piece.offset > covered) {
      throw partition_error("check_plan: gap before " + describe_part(index, piece) +
                            ": elements from " + std::to_string(covered) + " are not covered");
    }
    if (piece.offset < covered) {
      throw partition_error("check_plan: " + describe_part(index, piece) +
                            " overlaps or is out of order: elements up to " +
                            std::to_string(covered) + " are already covered");
    }
    if (piece.count > plan.elements - covered) {
      throw partition_error("check_plan: " + describe_part(index, piece) + " runs past the " +
                            std::to_string(plan.elements) + " elements of the plan");
    }
    auto& device_filled = filled[static_cast<std::size_t>(piece.device)];
    if (piece.local_offset != device_filled) {
      throw partition_error("check_plan: " + describe_part(index, piece) +
                            " should sit at local_offset " + std::to_string(device_filled) +
                            ", after the device's earlier parts");
    }
    device_filled += piece.count;
    covered += piece.count;
  }
  if (covered != plan.elements) {
    throw partition_error("check_plan: parts cover " + std::to_string(covered) + " of " +
                          std::to_string(plan.elements) + " elements");
  }
}

}  // namespace handoff::patterns::multi_gpu
