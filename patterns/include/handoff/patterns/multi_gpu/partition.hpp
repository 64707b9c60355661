#pragma once
// How the multi_gpu pattern (seed 004) deals one global array out to its devices. A plan is a list
// of contiguous parts in global order; each device packs its own parts one after the other, so a
// gather knows where every part sits on both sides without asking the device.
//
// The seed splits evenly (np.array_split). Devices that differ in speed finish at different times,
// so the weighted plan sizes each device's share by its measured throughput; round robin deals
// fixed-size chunks so that a pipeline can start on chunk k+1 while chunk k is still in flight.

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace handoff::patterns::multi_gpu {

class partition_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// One contiguous run of the global array that lives on one device. local_offset is where the run
// sits in that device's own buffer: a device's parts are packed one after the other in global
// order.
struct part {
  int device = 0;
  std::size_t offset = 0;  // in the global array
  std::size_t count = 0;
  std::size_t local_offset = 0;  // in the device's buffer
  bool operator==(const part&) const = default;
};

struct partition_plan {
  std::size_t elements = 0;
  int devices = 0;
  std::vector<part> parts;  // in global order; together they cover [0, elements) exactly once

  // A device outside [0, devices) is a partition_error.
  std::size_t elements_on(int device) const;
  std::size_t largest_device_share() const;
  std::vector<part> parts_on(int device) const;  // in global order

  // True when every device holds exactly one part, parts are in device order 0..devices-1, and all
  // counts are equal: what a plain NCCL all-gather needs.
  bool uniform() const;
};

enum class partitioner { even, round_robin, weighted };

std::string_view partitioner_name(partitioner kind);
// An unknown name is a partition_error that names it and lists the valid ones.
partitioner parse_partitioner(std::string_view name);

// np.array_split semantics: `devices` parts, part d on device d; the first (elements % devices)
// parts are one element longer. elements < devices gives trailing parts of count 0 (kept, with
// offset = where they would start); elements == 0 gives `devices` parts of count 0.
partition_plan partition_even(std::size_t elements, int devices);

// Chunks of chunk_elements (the last may be shorter) dealt to devices 0, 1, ..., devices-1, 0, ...
// Only non-empty chunks are parts; elements == 0 gives no parts.
partition_plan partition_round_robin(std::size_t elements, int devices, std::size_t chunk_elements);

// One part per device, in device order, sized in proportion to device_throughputs[d] (elements
// per second, measured) by the largest-remainder method, so the counts sum to `elements` exactly.
// Ties in the remainder go to the lower device index; a throughput of 0 gives that device nothing.
partition_plan partition_weighted(std::size_t elements, std::span<const double> device_throughputs);

// Throws partition_error when a plan breaks the invariants above: gaps, overlaps, out-of-order
// parts, wrong local offsets, a device out of range, or counts not summing to elements.
void check_plan(const partition_plan& plan);

}  // namespace handoff::patterns::multi_gpu
