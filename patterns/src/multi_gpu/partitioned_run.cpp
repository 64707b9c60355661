#include <stdexcept>

#include "handoff/patterns/multi_gpu/gathers.hpp"

namespace handoff::patterns::multi_gpu {

std::string_view run_scope_name(run_scope scope) {
  switch (scope) {
    case run_scope::gather:
      return "gather";
    case run_scope::resident:
      return "resident";
    case run_scope::from_host:
      return "from_host";
  }
  return "unknown";
}

void enqueue_partitioned_run(partitioned_devices& devices, const user_kernel& kernel,
                             device_gather* gather, run_scope scope) {
  if (gather == nullptr && scope == run_scope::gather) {
    throw std::invalid_argument("a run without a gather has nothing to time in scope 'gather'");
  }
  devices.fork();
  if (scope == run_scope::from_host) devices.enqueue_uploads();
  if (scope != run_scope::gather) devices.enqueue_kernels(kernel);
  if (gather != nullptr) gather->enqueue(devices);
  devices.join();
}

}  // namespace handoff::patterns::multi_gpu
