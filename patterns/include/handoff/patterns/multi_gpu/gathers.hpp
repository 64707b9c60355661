#pragma once
// The ways the partitioned results come together, and the run that orders them. Every gather here
// runs on the devices' own streams after each device's kernel, so one device's results travel
// while another still computes:
//   host_gather_pinned  each device copies its parts straight into one pinned host array;
//   p2p_gather          each device copies its parts into GPU 0 over the peer link (peer access
//                       enabled; a topology without it is peer_access_unavailable, by name);
//   nccl_allgather      (nccl_gather.hpp) every device ends with the whole array.
// The article's own way, one device after the other with synchronous pageable copies, is
// seed_host_gather.hpp.

#include <memory>
#include <string_view>
#include <vector>

#include "handoff/patterns/floor_terms.hpp"
#include "handoff/patterns/multi_gpu/partitioned_devices.hpp"
#include "handoff/reference/host_vector.hpp"

namespace handoff::patterns::multi_gpu {

// What a timed run includes: the gather alone (the results already on the devices), the kernel
// and the gather (the input resident on the devices), or the upload from pinned host memory too.
enum class run_scope { gather, resident, from_host };
std::string_view run_scope_name(run_scope scope);

// Which gather a variant runs (none: kernel_only; host_seed: the article's synchronous loop).
enum class gather_kind { none, host_seed, host_pinned, peer, nccl };

// Where each device's copy of an NCCL gather lives: cudaMalloc'd memory (nccl_allgather), or an
// NCCL symmetric window (nccl_allgather_window).
enum class nccl_result_memory { device, symmetric_window };

class device_gather {
 public:
  virtual ~device_gather() = default;
  virtual void poison() = 0;  // the destinations, so that a missed part shows
  virtual void enqueue(partitioned_devices& devices) = 0;
  // Every copy of the gathered array the gather makes (one per device for an all-gather),
  // copied to the host after the run; untimed.
  virtual std::vector<reference::host_vector<float>> results() const = 0;
  // What the gather reports about itself beside the run's figures (figures.hpp).
  virtual std::vector<named_figure> figures() const { return {}; }
};

std::unique_ptr<device_gather> make_host_pinned_gather(const partitioned_devices& devices);
std::unique_ptr<device_gather> make_peer_gather(const partitioned_devices& devices);

// Enqueues one run between devices.fork() and devices.join() on the origin stream. gather may be
// null: the results then stay on the devices (kernel_only), and scope gather is invalid.
void enqueue_partitioned_run(partitioned_devices& devices, const user_kernel& kernel,
                             device_gather* gather, run_scope scope);

}  // namespace handoff::patterns::multi_gpu
