#include "partitioned_case.hpp"

#include "handoff/device_discovery.hpp"
#include "handoff/patterns/multi_gpu/peer_access.hpp"
#include "handoff/patterns/multi_gpu/seed_host_gather.hpp"
#include "handoff/patterns/multi_gpu/workloads.hpp"
#include "handoff/reference/inputs.hpp"
#ifdef HANDOFF_HAVE_NCCL
#include "handoff/patterns/multi_gpu/nccl_gather.hpp"
#endif

namespace handoff::multi_gpu_tests {

using namespace patterns::multi_gpu;

std::string name_of(gather_under_test gather) {
  switch (gather) {
    case gather_under_test::none:
      return "kernel_only";
    case gather_under_test::host_seed:
      return "host_gather";
    case gather_under_test::host_pinned:
      return "host_gather_pinned";
    case gather_under_test::peer:
      return "p2p_gather";
    case gather_under_test::nccl:
      return "nccl_allgather";
  }
  return "unknown";
}

std::vector<gather_under_test> runnable_gathers(int gpus) {
  std::vector<gather_under_test> gathers = {gather_under_test::none, gather_under_test::host_seed,
                                            gather_under_test::host_pinned};
  if (peer_access_unavailable_reason(peer_access_matrix(gpus), 0, gpus).empty()) {
    gathers.push_back(gather_under_test::peer);
  }
#ifdef HANDOFF_HAVE_NCCL
  gathers.push_back(gather_under_test::nccl);
#endif
  return gathers;
}

namespace {

std::unique_ptr<device_gather> make_gather(gather_under_test gather, partitioned_devices& devices) {
  switch (gather) {
    case gather_under_test::host_pinned:
      return make_host_pinned_gather(devices);
    case gather_under_test::peer:
      return make_peer_gather(devices);
#ifdef HANDOFF_HAVE_NCCL
    case gather_under_test::nccl:
      return make_nccl_gather(devices, nccl_communicators::for_devices(devices));
#endif
    default:
      return nullptr;
  }
}

}  // namespace

partitioned_outcome run_partitioned_case(const partition_plan& plan,
                                         reference::partitioned_operation operation,
                                         gather_under_test gather, run_scope scope) {
  std::vector<float> input(plan.elements);
  reference::fill_seeded_nonzero(input, 0x7E57 + plan.elements);
  partitioned_outcome outcome;
  outcome.expected.resize(plan.elements);
  const auto ranges = value_ranges_of(plan);
  reference::apply_partitioned(operation, input, ranges, outcome.expected);

  const auto kernel = kernel_for(operation);
  partitioned_devices devices(plan, input);
  devices.poison_outputs();
  if (scope == run_scope::from_host) devices.poison_inputs();
  if (scope == run_scope::gather) {
    enqueue_partitioned_run(devices, kernel, nullptr, run_scope::resident);
    devices.synchronize();
  }
  if (gather == gather_under_test::host_seed) {
    seed_host_gather seed(devices, input);
    seed.poison();
    seed.run(kernel, scope);
    outcome.copies.emplace_back(seed.result().begin(), seed.result().end());
    return outcome;
  }
  const auto device_gather = make_gather(gather, devices);
  if (device_gather) device_gather->poison();
  enqueue_partitioned_run(devices, kernel, device_gather.get(), scope);
  devices.synchronize();
  outcome.copies = device_gather ? device_gather->results()
                                 : std::vector<std::vector<float>>{devices.assembled_outputs()};
  return outcome;
}

}  // namespace handoff::multi_gpu_tests
